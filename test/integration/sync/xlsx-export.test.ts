import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { syncHarness } from '../../support/sync-harness.js';
import { rowOf, xlsxOf } from '../../support/xlsx-files.js';

const ACCOUNT = 1001;

/** A bank's Excel export: a title row, the header in row 3, typed dates and amounts, a totals row. */
function bankExport(): Buffer {
  const rows = [
    rowOf(1, ['Umsätze Girokonto']),
    rowOf(3, ['Buchungs-ID', 'Buchungstag', 'Betrag', 'Verwendungszweck']),
    rowOf(4, ['B-1', { d: 45322 }, { n: '1234567.89' }, 'Rechnung 4711']),
    // What Excel stores for =-(0.1+0.2), and shows and exports as -0.3.
    rowOf(5, ['B-2', { d: 45323 }, { n: '-0.30000000000000004' }, 'Gebühr']),
    rowOf(6, ['B-3', { d: 45324 }, { n: '0.1' }, 'Zins']),
    '<row r="7"><c r="A7" t="inlineStr"><is><t>B-4</t></is></c><c r="B7" s="1"><v>45325</v></c><c r="C7" t="e"><v>#N/A</v></c></row>',
    rowOf(8, ['B-5', '05.02.2024', '-12,50', 'Text cells in the feed formats']),
    rowOf(9, ['Summe', null, { n: '1234555.19' }]),
  ].join('');
  return xlsxOf({
    cellFormats: [0, 14],
    sheets: [
      { name: 'Info', rows: rowOf(1, ['x']) },
      { name: 'Umsätze', rows },
    ],
  });
}

function feedOf(workbook: Buffer, sheet = 'Umsätze'): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-xlsx-'));
  writeFileSync(join(dir, 'export.xlsx'), workbook);
  const feed = [
    'name: giro-xlsx',
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    'source:',
    '  path: export.xlsx',
    '  format: xlsx',
    `  sheet: ${sheet}`,
    '  headerPattern: "^Buchungs-ID\\t"',
    '  skipRowsMatching: ["^Summe"]',
    '  decimalSeparator: ","',
    '  dateFormat: dd.MM.yyyy',
    'bankAccount: {externalId: giro, accountName: Giro, bankName: Bank}',
    'mapping: {externalId: Buchungs-ID, bookingDate: Buchungstag, amount: Betrag, purpose: Verwendungszweck}',
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${feed}\n`);
  return join(dir, 'feed.yaml');
}

describe('an Excel export, end to end (in-process runner, sandbox)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  it('typed cells arrive as Excel shows them, the broken row is rejected at its row number, a rerun creates nothing', async () => {
    const feed = feedOf(bankExport());
    const first = await h.run(feed);
    expect(first.summary.counts).toEqual({ created: 4, updated: 0, skipped: 0, rejected: 1, failed: 0 });
    expect(first.summary.controlTotals.created.amount).toBe('1234555.19');
    expect(first.outcomes.map((o) => [o.line, o.outcome])).toEqual([
      [4, 'created'],
      [5, 'created'],
      [6, 'created'],
      [7, 'rejected'],
      [8, 'created'],
    ]);
    expect(first.outcomes[3]).toMatchObject({
      code: 'UNREADABLE_ROW',
      message: 'row 7: column C ("Betrag") holds the error value #N/A, not a value',
    });
    const stored = h.transactions(ACCOUNT);
    expect(stored.map((t) => [t.externalId, t.bookingDate, t.amount, t.purpose]).sort()).toEqual([
      ['B-1', '2024-01-31', 1234567.89, 'Rechnung 4711'],
      ['B-2', '2024-02-01', -0.3, 'Gebühr'],
      ['B-3', '2024-02-02', 0.1, 'Zins'],
      ['B-5', '2024-02-05', -12.5, 'Text cells in the feed formats'],
    ]);

    const second = await h.run(feed);
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 4, rejected: 1, failed: 0 });
    expect(h.transactions(ACCOUNT)).toHaveLength(4);
  });

  it('the demo feed (a workbook written by openpyxl): five invoices at their sheet rows, typed dates and amounts, a rerun creates nothing', async () => {
    const first = await h.run('config/feeds/demo/xlsx.yaml');
    expect(first.summary.counts).toEqual({ created: 5, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(first.outcomes.map((o) => o.line)).toEqual([4, 5, 6, 7, 8]);
    const invoices = await h.stored(1002, 'invoices');
    expect(invoices).toContainEqual(
      expect.objectContaining({
        externalId: 'AR-2026-0104',
        contactName: 'Schmidt IT-Service',
        invoiceDate: '2026-02-18',
        dueDate: '2026-03-04',
        totalGrossAmount: 1234.56,
        openAmount: 617.28,
        invoiceStatus: 'PARTIALLY_PAID',
      }),
    );
    const second = await h.run('config/feeds/demo/xlsx.yaml');
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 5, rejected: 0, failed: 0 });
  });

  it('a sheet the workbook does not have stops the run (exit code 2) naming the file and the sheets there are', async () => {
    const run = await h.run(feedOf(bankExport(), 'Buchungen'));
    expect(run.summary.stopReason).toMatchObject({ code: 'XLSX_UNREADABLE', exitCode: 2 });
    expect(run.summary.stopReason?.message).toMatch(
      /export\.xlsx: the workbook has no sheet named "Buchungen" \(source\.sheet\); its sheets: "Info", "Umsätze"$/,
    );
    expect(exitCodeOfRun(run)).toBe(2);
    expect(h.transactions(ACCOUNT)).toHaveLength(0);
  });
});
