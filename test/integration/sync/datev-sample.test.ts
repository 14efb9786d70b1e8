import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { syncHarness } from '../../support/sync-harness.js';

const ACCOUNT = 1002;
const DEMO = 'config/feeds/demo/datev.yaml';

describe('DATEV booking batches (the demo and small ones), end to end (in-process runner, sandbox)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  it('the demo feed: the bank bookings created once with their signs and dates, the others left out', async () => {
    const first = await h.run(DEMO);
    expect(first.summary.counts).toEqual({ created: 4, updated: 0, skipped: 2, rejected: 0, failed: 0 });
    // H on the bank account is money out, S money in: -48.90 + 1190.00 - 850.00 - 12.35.
    expect(first.summary.controlTotals.created.amount).toBe('278.75');
    expect(first.outcomes.map((o) => [o.line, o.outcome, o.code ?? null])).toEqual([
      [3, 'created', null],
      [4, 'skipped', 'EXCLUDED'],
      [5, 'created', null],
      [6, 'created', null],
      [7, 'skipped', 'EXCLUDED'],
      [8, 'created', null],
    ]);
    // Windows-1252 read as such; Belegdatum DDMM completed with the meta header's year.
    expect(h.transactions(ACCOUNT).find((t) => t.amount === -48.9)).toMatchObject({
      bookingDate: '2026-02-03',
      currency: 'EUR',
      purpose: 'Toner und Papier Bürobedarf Weiß',
      externalId: expect.stringMatching(/^erpb2-/),
    });
    expect(h.transactions(ACCOUNT).find((t) => t.amount === 1190)).toMatchObject({
      bookingDate: '2026-02-19',
    });

    const second = await h.run(DEMO);
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 6, rejected: 0, failed: 0 });
    expect(second.summary.controlTotals.created.amount).toBe('0');
    expect(h.transactions(ACCOUNT)).toHaveLength(4);
  });

  it('a booking with a bad date or amount is rejected at its line; the good bookings of the file are created', async () => {
    const meta = META.replace(';16;"Debitoren/Kreditoren";', ';21;"Buchungsstapel";');
    const feed = feedWith('buchungen.csv', [
      meta,
      'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;Konto;Belegdatum;Buchungstext',
      '100,00;"S";1200;0502;"Einzahlung"',
      '7,50;"H";1200;3112;"Gebühr"',
      '7.50;"H";1200;0602;"Gebühr"',
    ]);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 1, updated: 0, skipped: 0, rejected: 2, failed: 0 });
    expect(run.summary.controlTotals.created.amount).toBe('100');
    expect(run.outcomes.map((o) => [o.line, o.outcome, o.code ?? null])).toEqual([
      [3, 'created', null],
      [4, 'rejected', 'UNREADABLE_ROW'],
      [5, 'rejected', 'UNREADABLE_ROW'],
    ]);
    expect(run.outcomes[1]?.message).toContain('field "Belegdatum" is "3112"');
    expect(run.outcomes[2]?.message).toContain('field "Umsatz (ohne Soll/Haben-Kz)" is "7.50"');
    expect(h.transactions(ACCOUNT)).toEqual([
      expect.objectContaining({ bookingDate: '2018-02-05', amount: 100 }),
    ]);
  });

  it('a DATEV file of another category stops the run (exit 2) naming file, line and field; nothing is sent', async () => {
    const feed = feedWith('debitoren.csv', [META, 'Konto;Name (Adressatentyp Unternehmen)', '10000;"Kunde"']);
    const run = await h.run(feed);
    expect(run.summary.stopReason).toMatchObject({ code: 'SOURCE_LAYOUT', exitCode: 2 });
    expect(run.summary.stopReason?.message).toContain(
      'debitoren.csv: line 1: meta header field 3 (Formatkategorie) is "16": expected 21 (Buchungsstapel)',
    );
    expect(exitCodeOfRun(run)).toBe(2);
    expect(h.transactions(ACCOUNT)).toHaveLength(0);
  });
});

/** A meta header of category 16 (Debitoren/Kreditoren), fiscal year 2018, range February 2018. */
const META =
  '"EXTF";700;16;"Debitoren/Kreditoren";5;20180306102500000;;"XY";"";"";1001;456;20180101;4;20180201;20180228;"";"";;;;"EUR";"";"";"";"";"";;;"";""';

/** A feed of one small DATEV file (CRLF), mapping its bookings to transactions of bank account 1200. */
function feedWith(name: string, lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-datev-'));
  writeFileSync(join(dir, name), lines.map((line) => `${line}\r\n`).join(''), 'latin1');
  writeFileSync(
    join(dir, 'feed.yaml'),
    [
      'name: datev-small',
      `accountId: ${ACCOUNT}`,
      'kind: transactions',
      'source: {path: "*.csv", format: datev}',
      'mapping: {bookingDate: documentDate, amount: signedAmount, currency: currency, purpose: Buchungstext}',
      'bankAccount: {externalId: "1200", accountName: Bank, bankName: Bank}',
    ].join('\n'),
  );
  return join(dir, 'feed.yaml');
}
