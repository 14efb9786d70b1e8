import { type LoadedFeed, parseFeed } from '../../src/config/load-feed.js';

/**
 * A small transactions feed at /feeds/f.yaml (never read from disk) with the given `source` lines
 * beside `format: csv`: for tests of source keys (location, arrival, afterRun) and of what a feed
 * lets a job read.
 */
export function csvFeedWith(sourceLines: readonly string[]): LoadedFeed {
  return parseFeed(
    [
      'name: f',
      'accountId: 1',
      'kind: transactions',
      'source:',
      '  format: csv',
      ...sourceLines.map((line) => `  ${line}`),
      'mapping: { externalId: id, bookingDate: d, amount: a, currency: { const: EUR } }',
      'bankAccount: { externalId: g, accountName: G, bankName: B }',
    ].join('\n'),
    '/feeds/f.yaml',
  );
}
