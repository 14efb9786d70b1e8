import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Measured, measure, sandboxCreated, table } from '../support/first-feed.js';
import { sharedSample, whySharedSamplesMissing } from './shared-samples.js';

/**
 * Issue 28, point 4, on other projects' real exports (../shared/samples, read in place; measure
 * copies each into a temporary folder, never into the repository): `erp-bridge init`'s feed, filled
 * in with the account only, against the feed a person wrote for the export — check's records, then
 * a sandbox sync's created count. A format is one row: delimited, camt, MT940 and DATEV samples.
 */
interface Row {
  file: string;
  hand: Record<string, unknown>;
  /** Where init asks: what the person decides (key -> value); the feed must be right then. */
  decide?: Record<string, unknown>;
}

/** A statement feed as test/samples/camt-sync.test.ts writes it: no mapping, `bankAccounts: auto`. */
const camt = (file: string): Row => ({
  file,
  hand: { ...BANK, source: { format: 'camt' }, bankAccounts: 'auto' },
});
/** As test/samples/mt940-sync.test.ts writes it: no mapping, a bank account of its own. */
const mt940 = (file: string): Row => {
  const name = file.replace(/[^A-Za-z0-9]+/g, '-');
  return {
    file,
    hand: {
      ...BANK,
      source: { format: 'mt940' },
      bankAccount: { externalId: name, accountName: name, bankName: 'Bank' },
    },
  };
};

const BANK = { accountId: 1001, kind: 'transactions' };
const ROWS: Row[] = [
  {
    file: 'sparkasse-csv-camt.csv',
    hand: {
      ...BANK,
      source: { format: 'csv', delimiter: ';', decimalSeparator: ',', dateFormat: 'dd.MM.yy' },
      mapping: {
        bookingDate: 'Buchungstag',
        valueDate: 'Valutadatum',
        amount: 'Betrag',
        currency: 'Waehrung',
        // As the demo feed of the same layout (config/feeds/demo/sparkasse.yaml) joins them.
        purpose: { columns: ['Buchungstext', 'Verwendungszweck'], separator: ' / ' },
        counterpartyName: 'Beguenstigter/Zahlungspflichtiger',
        counterpartyIban: 'Kontonummer/IBAN',
      },
      exclude: [{ column: 'Info', equals: 'Umsatz vorgemerkt' }],
      bankAccount: { externalId: 'sparkasse-giro', accountName: 'Girokonto', bankName: 'Sparkasse' },
    },
  },
  {
    // The feed of test/samples/dkb-sync.test.ts.
    file: 'dkb-ec-non_empty.csv',
    hand: {
      ...BANK,
      source: {
        format: 'csv',
        delimiter: ';',
        encoding: 'iso-8859-1',
        decimalSeparator: ',',
        dateFormat: 'dd.MM.yyyy',
        headerPattern: '^Buchungstag;Wertstellung;',
      },
      mapping: {
        bookingDate: 'Buchungstag',
        valueDate: 'Wertstellung',
        amount: 'Betrag (EUR)',
        currency: { const: 'EUR' },
        purpose: { columns: ['Buchungstext', 'Verwendungszweck'], separator: ' / ' },
        counterpartyName: 'Auftraggeber / Begünstigter',
        counterpartyIban: 'Kontonummer',
      },
      bankAccount: { externalId: 'dkb-giro', accountName: 'DKB Girokonto', bankName: 'DKB' },
    },
  },
  camt('camt053-vr-bank.xml'),
  camt('camt-camt053.v2.multi.statement.xml'),
  mt940('mt940-sparkasse.txt'),
  mt940('mt940-ing.txt'),
  {
    // As config/feeds/demo/datev.yaml: the bookings on the bank's G/L account 1200 (SKR03).
    file: 'datev-extf-buchungsstapel.csv',
    hand: {
      ...BANK,
      source: { format: 'datev' },
      mapping: {
        bookingDate: 'documentDate',
        amount: 'signedAmount',
        currency: 'currency',
        purpose: 'Buchungstext',
      },
      exclude: [{ column: 'Konto', matches: '^(?!1200$)' }],
      bankAccount: { externalId: '1200', accountName: 'Geschäftskonto', bankName: 'Bank' },
    },
    decide: { exclude: [{ column: 'Konto', matches: '^(?!1200$)' }] },
  },
];

const work = mkdtempSync(join(tmpdir(), 'erp-bridge-first-feed-samples-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(whySharedSamplesMissing() !== undefined)(
  'init measured on ../shared/samples (issue 28, point 4)',
  () => {
    const measured: Measured[] = [];
    for (const row of ROWS)
      it(`${row.file}: ${row.decide ? 'asked, right once decided' : 'right as inferred'}; a sandbox sync creates as many as the hand-written feed`, async () => {
        let result = await measure(sharedSample(row.file), row.hand);
        measured.push(result);
        expect(result.outcome, result.detail).toBe(row.decide ? 'asked' : 'right as inferred');
        if (row.decide) {
          result = await measure(sharedSample(row.file), row.hand, { decide: row.decide });
          expect(result.outcome, result.detail).toBe('right as inferred');
          measured.splice(-1, 1, { ...result, outcome: 'asked', decided: true });
        }
        const reports = mkdtempSync(join(work, 'reports-'));
        const inferred = await sandboxCreated(result.inferredFeed, reports);
        expect(inferred).toBe(await sandboxCreated(result.handFeed, reports));
        expect(inferred).toBeGreaterThan(0);
      });

    afterAll(() => {
      process.stdout.write(`\ninit measured on ../shared/samples:\n${table(measured)}\n`);
    });
  },
);
