import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFaultInjector, NO_FAULTS } from '../../../src/sandbox/faults.js';
import { FaultConfig, type FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { type CliRun, cliSandboxPerFile, repoRoot, runCli } from '../../support/cli-run.js';
import { rowOf, xlsxOf } from '../../support/xlsx-files.js';

/**
 * Issue 27 point 2: a feed is a fault boundary. In one `erp-bridge sync` of several feeds, feed A
 * meets a fault (location, reader, resource cap, service refusal); feeds B (A's tenant) and C
 * (another tenant) sync every record with their own summaries, and A's summary and the exit code
 * say A's code. A 429 is the one thing feeds share by design: the spec limits the rate per
 * credentials, so A's 429 pauses every feed's requests; the others wait and resume, none fails.
 * (A refused SFTP login or S3 credentials: remote-refusal.test.ts.)
 */
const { work, sandbox, env } = cliSandboxPerFile('feed-boundary');
const ROWS = 1200;
const TENANT = 1001;
const OTHER_TENANT = 1002;

afterEach(() => {
  sandbox().runtime.faults = NO_FAULTS;
});

function useFaults(config: FaultConfigInput) {
  const faults = createFaultInjector(FaultConfig.parse(config));
  sandbox().runtime.faults = faults;
  return faults;
}

function csvExport(tag: string, rows: number): string {
  const lines = ['Buchungstag;Betrag;Verwendungszweck;Referenz'];
  for (let i = 1; i <= rows; i++)
    lines.push(`0${(i % 9) + 1}.03.2024;-${i},50;Zahlung Müller ${tag}-${i};${tag}-${i}`);
  return `${lines.join('\r\n')}\r\n`;
}

/** A transactions feed in its own folder: the feed file, and its export written there unless `path` says otherwise. */
function transactionsFeed(
  name: string,
  options: {
    accountId?: number;
    export?: string | Buffer;
    path?: string;
    source?: string;
    mapping?: string;
  } = {},
): string {
  const dir = mkdtempSync(join(work, `${name}-`));
  if (options.export !== undefined) writeFileSync(join(dir, 'bank.csv'), options.export);
  const feed = [
    `name: ${name}`,
    `accountId: ${options.accountId ?? TENANT}`,
    'kind: transactions',
    `source: {path: ${JSON.stringify(options.path ?? 'bank.csv')}, format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy, arrival: immediate${options.source ?? ''}}`,
    // One bank account per tenant for every feed: the sandbox's subscription has few slots.
    'bankAccount: {externalId: boundary, accountName: boundary, bankName: Bank}',
    `mapping: ${options.mapping ?? '{externalId: Referenz, amount: Betrag, bookingDate: Buchungstag, valueDate: Buchungstag, purpose: Verwendungszweck}'}`,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

/** An invoices feed of `rows` invoices (tenant 1001), its externalIds starting with `tag`. */
function invoicesFeed(name: string, tag: string, rows: number): string {
  const dir = mkdtempSync(join(work, `${name}-`));
  const lines = ['Rechnung-ID;Nummer;Kunde;Brutto;Status;Datum'];
  for (let i = 1; i <= rows; i++)
    lines.push(`${tag}-${i};RE-${tag}-${i};Kunde ${i} GmbH;${i}00,00;OPEN;12.01.2026`);
  writeFileSync(join(dir, 'invoices.csv'), `${lines.join('\n')}\n`);
  const feed = [
    `name: ${name}`,
    `accountId: ${TENANT}`,
    'kind: invoices',
    'source: {path: invoices.csv, format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy, arrival: immediate}',
    'mapping: {externalId: Rechnung-ID, invoiceType: {const: SALES_INVOICE}, invoiceNumber: Nummer, contactName: Kunde, totalGrossAmount: Brutto, invoiceStatus: Status, invoiceDate: Datum}',
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

/** A workbook (the demo xlsx feed's columns, as shared strings) under a feed whose shared-strings cap it exceeds. */
function cappedWorkbookFeed(name: string): string {
  const dir = mkdtempSync(join(work, `${name}-`));
  const header = ['Beleg-Nr.', 'Kunde', 'Brutto', 'Offen', 'Status', 'Belegdatum', 'Fällig am'];
  const workbook = xlsxOf({
    sheets: [
      {
        name: 'Posten',
        rows: [
          rowOf(
            1,
            header.map((_, s) => ({ s })),
          ),
          rowOf(2, ['RE-1', 'Kunde GmbH', { n: '100' }, { n: '100' }, 'offen', { d: 46000 }, { d: 46030 }]),
        ].join(''),
      },
    ],
    sharedStrings: header,
    cellFormats: [0, 14],
  });
  writeFileSync(join(dir, 'posten.xlsx'), workbook);
  const yaml = readFileSync(join(repoRoot, 'config/feeds/demo/xlsx.yaml'), 'utf8')
    .replace('name: demo-xlsx', `name: ${name}`)
    .replace('accountId: 1002', `accountId: ${TENANT}`)
    .replace('path: exports/xlsx/*.xlsx', 'path: posten.xlsx\n  maxSharedStringsBytes: 16');
  writeFileSync(join(dir, 'feed.yaml'), yaml);
  return join(dir, 'feed.yaml');
}

/** The healthy feeds beside A: B on A's tenant, C on another; their tags are unique per test. */
function healthy(tag: string): { b: string; c: string; tag: string } {
  return {
    tag,
    b: transactionsFeed(`b-${tag.toLowerCase()}`, { export: csvExport(`${tag}B`, ROWS) }),
    c: transactionsFeed(`c-${tag.toLowerCase()}`, {
      accountId: OTHER_TENANT,
      export: csvExport(`${tag}C`, ROWS),
    }),
  };
}

interface Synced extends CliRun {
  reportDir: string;
}

async function sync(feeds: string[]): Promise<Synced> {
  const reportDir = mkdtempSync(join(work, 'reports-'));
  const ran = await runCli(['sync', ...feeds, '--report-dir', reportDir], env());
  return { ...ran, reportDir };
}

function summaries(reportDir: string): Record<string, RunSummary> {
  const byFeed: Record<string, RunSummary> = {};
  for (const run of readdirSync(reportDir).filter((entry) => !entry.startsWith('.'))) {
    const summary = JSON.parse(readFileSync(join(reportDir, run, 'summary.json'), 'utf8')) as RunSummary;
    byFeed[summary.feed] = summary;
  }
  return byFeed;
}

const transactionsOf = (accountId: number, prefix: string) =>
  [...(sandbox().runtime.state.accounts.get(accountId)?.transactions.values() ?? [])]
    .flatMap((m) => [...m.values()])
    .filter((t) => t.externalId?.startsWith(`${prefix}-`)).length;

/** B and C synced every record, with their own summaries, as if A were not there. */
function expectHealthy(ran: Synced, { tag }: { tag: string }): void {
  const byFeed = summaries(ran.reportDir);
  for (const [feed, accountId] of [
    [`b-${tag.toLowerCase()}`, TENANT],
    [`c-${tag.toLowerCase()}`, OTHER_TENANT],
  ] as const) {
    const summary = byFeed[feed];
    expect(summary?.state, feed).toBe('completed');
    expect(summary?.stopReason, feed).toBeUndefined();
    expect(summary?.counts, feed).toMatchObject({ created: ROWS, failed: 0, rejected: 0 });
    expect(ran.stdout).toContain(`${feed}: completed`);
    expect(transactionsOf(accountId, `${tag}${feed[0]?.toUpperCase()}`)).toBe(ROWS);
  }
  expect(`${ran.stdout}${ran.stderr}`).not.toContain('unexpected error');
  expect(ran.stderr).not.toContain('The client is destroyed');
}

function expectStopped(ran: Synced, feed: string, code: string | RegExp, exitCode: number): RunSummary {
  const summary = summaries(ran.reportDir)[feed];
  expect(summary?.state, feed).toBe('stopped');
  expect(summary?.stopReason?.code, feed).toMatch(code);
  expect(summary?.stopReason?.exitCode, feed).toBe(exitCode);
  expect(ran.stdout).toContain(`${feed}: stopped`);
  return summary as RunSummary;
}

describe('issue 27.2: a feed is a fault boundary in one `sync` of several feeds', () => {
  it('configuration: an invalid feed file refuses the whole sync before any export is read (exit 2, as docs/feeds.md says)', async () => {
    const broken = join(mkdtempSync(join(work, 'broken-')), 'broken.yaml');
    writeFileSync(broken, 'name: broken\naccountId: "one"\nkind: transactions\n');
    const feeds = healthy('CFG');
    const ran = await sync([broken, feeds.b, feeds.c]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('broken.yaml');
    expect(ran.stderr).not.toContain('unexpected error');
    // Documented: a feed file is checked when loaded, "exit code 2, before any export is read".
    expect(readdirSync(ran.reportDir)).toEqual([]);
    expect(transactionsOf(TENANT, 'CFGB')).toBe(0);
  });

  it('location, reader and resource cap: each stopped feed says its code (exit 2); the others sync every record', async () => {
    const feeds = healthy('RD');
    const missing = transactionsFeed('a-missing-folder', { path: 'gone/bank-*.csv' });
    const encoding = transactionsFeed('a-encoding', {
      export: Buffer.from(csvExport('ENC', 30), 'latin1'),
      source: ', encoding: utf-8',
    });
    const layout = transactionsFeed('a-layout', {
      export: csvExport('LAY', 30),
      mapping: '{externalId: Referenz, amount: Amount, bookingDate: Buchungstag, purpose: Verwendungszweck}',
    });
    const capped = cappedWorkbookFeed('a-sheet-cap');
    const noAccount = transactionsFeed('a-no-account', { accountId: 9999, export: csvExport('NOACC', 30) });
    const ran = await sync([missing, encoding, feeds.b, layout, capped, feeds.c, noAccount]);
    expect(ran.code).toBe(2);
    expectStopped(ran, 'a-missing-folder', 'SOURCE_FOLDER_MISSING', 2);
    expectStopped(ran, 'a-encoding', 'ENCODING_INVALID', 2);
    expectStopped(ran, 'a-layout', 'SOURCE_LAYOUT', 2);
    expectStopped(ran, 'a-sheet-cap', 'SOURCE_TOO_LARGE', 2);
    expectStopped(ran, 'a-no-account', 'ACCOUNT_NOT_FOUND', 2);
    expectHealthy(ran, feeds);
  });

  it('service refusal: an account the credentials may not access stops its feed (exit 3); the others sync', async () => {
    const feeds = healthy('DENY');
    const denied = transactionsFeed('a-denied', { accountId: 1003, export: csvExport('DENIED', 30) });
    const ran = await sync([denied, feeds.b, feeds.c]);
    expect(ran.code).toBe(3);
    expectStopped(ran, 'a-denied', 'ACCOUNT_ACCESS_DENIED', 3);
    expectHealthy(ran, feeds);
  });

  it("rows A's reader cap or the service refuses are A's rejected records (exit 1); the others sync", async () => {
    const feeds = healthy('REJ');
    const rowCap = transactionsFeed('a-row-cap', {
      export: csvExport('ROW', 30),
      source: ', maxRowBytes: 16',
    });
    const refused = invoicesFeed('a-refused', 'REFUSED', 30);
    useFaults({ echo: { status: 400, on: ['createInvoicesBulk'] } });
    const ran = await sync([rowCap, feeds.b, refused, feeds.c]);
    expect(ran.code).toBe(1);
    const byFeed = summaries(ran.reportDir);
    // Every line is past the cap, the header's too: 30 rows and the header, each rejected.
    expect(byFeed['a-row-cap']?.counts).toMatchObject({ created: 0, rejected: 31 });
    expect(byFeed['a-refused']?.counts).toMatchObject({ created: 0, rejected: 30 });
    expectHealthy(ran, feeds);
  });

  it('a 429 of A pauses the credentials every feed shares: the others wait, resume and sync; none fails (exit 0)', async () => {
    const feeds = healthy('RATE');
    const limited = invoicesFeed('a-limited', 'LIMITED', 30);
    const faults = useFaults({
      script: [{ op: 'createInvoicesBulk', fault: '429', times: 2, retryAfterSeconds: 1 }],
    });
    const ran = await sync([limited, feeds.b, feeds.c]);
    expect(faults.injected()['429']).toBe(2);
    expect(ran.code).toBe(0);
    expect(summaries(ran.reportDir)['a-limited']?.counts).toMatchObject({ created: 30, failed: 0 });
    expectHealthy(ran, feeds);
  });
});
