import { type LoadedFeed, parseFeed } from '../../src/config/load-feed.js';

/**
 * The YAML of a small transactions feed (`f` of account 1 unless named) with the given `source`
 * lines beside `format: csv`.
 */
export function csvFeedText(
  sourceLines: readonly string[],
  { name = 'f', accountId = 1 }: { name?: string; accountId?: number } = {},
): string {
  return [
    `name: ${name}`,
    `accountId: ${accountId}`,
    'kind: transactions',
    'source:',
    '  format: csv',
    ...sourceLines.map((line) => `  ${line}`),
    'mapping: { externalId: id, bookingDate: d, amount: a, currency: { const: EUR } }',
    'bankAccount: { externalId: g, accountName: G, bankName: B }',
  ].join('\n');
}

/**
 * That feed at /feeds/f.yaml (never read from disk): for tests of source keys (location, arrival,
 * afterRun) and of what a feed lets a job read.
 */
export function csvFeedWith(sourceLines: readonly string[]): LoadedFeed {
  return parseFeed(csvFeedText(sourceLines), '/feeds/f.yaml');
}

/**
 * The YAML of a transactions feed (account 1001) reading `exports/*.csv` beside it in German
 * conventions (`;`, decimal comma, dd.MM.yyyy): `mapping` and `bankAccount` are their keys' lines,
 * joined by "\n  ".
 */
export function germanCsvFeedText(name: string, mapping: string, bankAccount: string): string {
  return `name: ${name}
accountId: 1001
kind: transactions
source:
  path: exports/*.csv
  format: csv
  delimiter: ";"
  decimalSeparator: ","
  dateFormat: dd.MM.yyyy
mapping:
  ${mapping}
bankAccount:
  ${bankAccount}
`;
}
