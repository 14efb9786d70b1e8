import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SyncHarness, syncHarness } from '../support/sync-harness.js';
import { SHARED_SAMPLES } from './shared-samples.js';

const ACCOUNT = 1001;
const SAMPLES = pathToFileURL(`${SHARED_SAMPLES}/`);

/**
 * A CSV feed for DKB's giro export: ISO-8859-1, `;` with a trailing `;`, and a preamble (account,
 * period, balance) with blank lines before the header, so the header is found by its first cell.
 */
function feedOf(sample: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-dkb-'));
  copyFileSync(new URL(sample, SAMPLES), join(dir, sample));
  const feed = `name: dkb-giro
accountId: ${ACCOUNT}
kind: transactions
source:
  path: ${JSON.stringify(sample)}
  format: csv
  delimiter: ";"
  encoding: iso-8859-1
  decimalSeparator: ","
  dateFormat: dd.MM.yyyy
  headerPattern: "^Buchungstag;Wertstellung;"
mapping:
  bookingDate: Buchungstag
  valueDate: Wertstellung
  amount: Betrag (EUR)
  currency: { const: EUR }
  purpose: { columns: [Buchungstext, Verwendungszweck], separator: " / " }
  counterpartyName: Auftraggeber / Begünstigter
  counterpartyIban: Kontonummer
bankAccount: { externalId: dkb-giro, accountName: DKB Girokonto, bankName: DKB }
`;
  writeFileSync(join(dir, 'feed.yaml'), feed);
  return join(dir, 'feed.yaml');
}

describe('the real DKB giro CSV samples, end to end (in-process runner, sandbox)', () => {
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  it('dkb-ec-non_empty.csv: the one direct debit is created at its line, and a rerun creates nothing', async () => {
    const feed = feedOf('dkb-ec-non_empty.csv');
    const first = await h.run(feed);
    expect(first.summary.state).toBe('completed');
    expect(first.summary.counts).toEqual({ created: 1, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(first.summary.controlTotals.all).toEqual({ records: 1, amount: '-15.37' });
    expect(first.outcomes.map((o) => [o.line, o.outcome])).toEqual([[8, 'created']]);
    const stored = h.transactions(ACCOUNT);
    expect(stored).toHaveLength(1);
    // No ID column: the derived identity. The umlaut header is read from ISO-8859-1.
    expect(stored[0]).toMatchObject({
      externalId: expect.stringMatching(/^erpb2-.*-1$/),
      bookingDate: '2018-01-16',
      valueDate: '2018-01-16',
      amount: -15.37,
      currency: 'EUR',
      purpose: 'Lastschrift / REWE SAGT DANKE.',
      counterpartyName: 'REWE Filialen Voll',
      counterpartyIban: 'DE00000000000000000000',
    });

    const second = await h.run(feed);
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 1, rejected: 0, failed: 0 });
    expect(h.transactions(ACCOUNT)).toHaveLength(1);
  });

  it('dkb-ec-empty.csv: the preamble and header, no rows: 0 records, no error, and the same on a rerun', async () => {
    const feed = feedOf('dkb-ec-empty.csv');
    for (const run of [await h.run(feed), await h.run(feed)]) {
      expect(run.summary.state).toBe('completed');
      expect(run.summary.files.map((f) => f.records)).toEqual([0]);
      expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 0, rejected: 0, failed: 0 });
      expect(run.summary.controlTotals.all).toEqual({ records: 0, amount: '0' });
      expect(run.summary.firstErrors).toEqual([]);
      expect(run.outcomes).toEqual([]);
    }
    expect(h.transactions(ACCOUNT)).toHaveLength(0);
  });
});
