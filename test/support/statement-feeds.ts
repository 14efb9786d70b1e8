import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SyncHarness } from './sync-harness.js';

/** Bank statement files of several accounts (test/fixtures/routing) and feeds of them. */
export const ACCOUNT = 1001;
const FIXTURES = new URL('../fixtures/routing/', import.meta.url);
export const MT940 = 'two-accounts.sta';
export const CAMT = 'two-statements.camt.xml';
/** The statement accounts of the two files. */
export const DE_A = 'DE89370400440532013000';
export const DE_B = 'DE02120300000000202051';
export const GB = 'GB29NWBK60161331926819';

/** A feed of one fixture with no mapping section; `targets` is its YAML for the target keys. */
export function feedOf(fixture: string, format: 'mt940' | 'camt', targets: string, name = 'routing'): string {
  const content = readFileSync(new URL(fixture, FIXTURES));
  return statementFeed({ [fixture]: content }, format, targets, fixture, name).feed;
}

/** A transactions feed over the files of a fresh folder (name → content), with `targets` as its YAML. */
export function statementFeed(
  files: Record<string, string | Buffer>,
  format: 'camt' | 'mt940',
  targets: string,
  glob = format === 'camt' ? '*.xml' : '*.sta',
  name = 'statements',
): { dir: string; feed: string } {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-statements-'));
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  const feed = [
    `name: ${name}`,
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    `source: {path: ${JSON.stringify(glob)}, format: ${format}}`,
    targets,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return { dir, feed: join(dir, 'feed.yaml') };
}

export const target = (externalId: string, currency = 'EUR') =>
  `{externalId: ${externalId}, accountName: ${externalId}, bankName: Bank, accountCurrency: ${currency}}`;

/** The bank accounts a sandbox holds for the test account. */
export const bankAccountsOf = (h: SyncHarness) => [
  ...(h.sandbox.runtime.state.accounts.get(ACCOUNT)?.bankAccounts.values() ?? []),
];

/** The demo's camt.053 statement (written for the demo): account DEMO_CAMT_IBAN, six entries, 813.86. */
export const DEMO_CAMT = 'config/feeds/demo/exports/camt/camt053-raiffeisen-2026-02-04.xml';
export const DEMO_CAMT_IBAN = 'DE80740699110000033627';

/**
 * The demo statement with its closing balance (2334.30) changed to 2500.00, as a bank's wrong file
 * would have it: opening 1520.44 + entries 813.86 is off by 165.7.
 */
export const unbalancedDemoCamt = (): string => {
  const text = readFileSync(DEMO_CAMT, 'utf8');
  const wrong = text.replace('<Amt Ccy="EUR">2334.30</Amt>', '<Amt Ccy="EUR">2500.00</Amt>');
  if (wrong === text) throw new Error(`${DEMO_CAMT}: its closing balance 2334.30 was not found`);
  return wrong;
};
