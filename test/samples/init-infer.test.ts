import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inferFeed } from '../../src/init/feed-inference.js';
import { type CsvInference, inferCsv } from '../../src/init/infer-csv.js';
import { readSample } from '../../src/init/sample.js';
import { type Right, verdictsOf } from '../support/init-verdicts.js';
import { SHARED_SAMPLES, sharedSample, whySharedSamplesMissing } from './shared-samples.js';

/**
 * init's inference engine on the real CSV exports of ../shared/samples, read in place. Each is
 * compared with the settings a person wrote for it (dkb-sync.test.ts's feed; the Sparkasse export's
 * own header): what is inferred `sure` must be right — a wrong sign, date or amount column, date
 * format or separator must never be sure. DATEV's booking batch is left out: it is a format of its
 * own (`format: datev`), which init is to detect apart.
 */

const LATIN = (file: string): readonly string[] =>
  // Windows-1252 and ISO-8859-1 read a file the same unless it has a byte 0x80-0x9F.
  readFileSync(sharedSample(file)).some((b) => b >= 0x80 && b <= 0x9f)
    ? ['iso-8859-1']
    : ['iso-8859-1', 'windows-1252'];

const DKB_FORMAT = (file: string): Right => ({
  encoding: LATIN(file),
  delimiter: [';'],
  quote: ['"'],
  skipLines: [6],
  headerPattern: ['^Buchungstag;Wertstellung;'],
  skipFooterLines: [0],
  decimalSeparator: [','],
  dateFormat: ['dd.MM.yyyy'],
  kind: ['transactions'],
  'mapping.bookingDate': ['Buchungstag'],
  'mapping.valueDate': ['Wertstellung'],
  'mapping.amount': ['Betrag (EUR)'],
  'mapping.purpose': [
    'Verwendungszweck',
    { columns: ['Buchungstext', 'Verwendungszweck'], separator: ' / ' },
  ],
  'mapping.counterpartyName': ['Auftraggeber / Begünstigter'],
  'mapping.counterpartyIban': ['Kontonummer'],
  'mapping.currency': [{ const: 'EUR' }],
  'identity.externalId': [null],
});

const SAMPLES: Record<string, Right> = {
  'sparkasse-csv-camt.csv': {
    encoding: ['utf-8'],
    delimiter: [';'],
    quote: ['"'],
    skipLines: [0],
    skipFooterLines: [0],
    decimalSeparator: [','],
    // date.ts reads two-digit years under yyyy as well: both read these cells alike.
    dateFormat: ['dd.MM.yy', 'dd.MM.yyyy'],
    kind: ['transactions'],
    'mapping.bookingDate': ['Buchungstag'],
    'mapping.valueDate': ['Valutadatum'],
    'mapping.amount': ['Betrag'],
    'mapping.currency': ['Waehrung'],
    'mapping.purpose': [
      'Verwendungszweck',
      { columns: ['Buchungstext', 'Verwendungszweck'], separator: ' / ' },
    ],
    'mapping.counterpartyName': ['Beguenstigter/Zahlungspflichtiger'],
    'mapping.counterpartyIban': ['Kontonummer/IBAN'],
    'identity.externalId': [null],
    // Its first booking is "Umsatz vorgemerkt": not booked yet, it comes back booked.
    exclude: [[{ column: 'Info', equals: 'Umsatz vorgemerkt' }]],
  },
  'dkb-ec-non_empty.csv': DKB_FORMAT('dkb-ec-non_empty.csv'),
  'dkb-ec-empty.csv': DKB_FORMAT('dkb-ec-empty.csv'),
};

describe.skipIf(whySharedSamplesMissing() !== undefined)('init infers feeds for the real CSV samples', () => {
  const inferences = new Map<string, CsvInference>();
  const infer = async (file: string) => {
    const known = inferences.get(file);
    if (known) return known;
    const result = inferCsv(await readSample(sharedSample(file)));
    if (!result.ok) throw new Error(`${file}: ${result.problem}`);
    inferences.set(file, result.inference);
    return result.inference;
  };

  for (const [file, right] of Object.entries(SAMPLES)) {
    it(`${file}: nothing inferred "sure" is wrong`, async () => {
      const inference = await infer(file);
      const verdicts = verdictsOf(inference, right);
      const wrongAndSure = verdicts.filter(([, verdict]) => verdict === 'SURE AND WRONG');
      expect(wrongAndSure).toEqual([]);
    });
  }

  it('sparkasse-csv-camt.csv: every format setting and the mapping right as inferred', async () => {
    const inference = await infer('sparkasse-csv-camt.csv');
    const right = SAMPLES['sparkasse-csv-camt.csv'] as Right;
    const verdicts = Object.fromEntries(verdictsOf(inference, right).map(([key, verdict]) => [key, verdict]));
    expect(verdicts).toEqual(Object.fromEntries(Object.keys(verdicts).map((key) => [key, 'right'])));
    expect(Object.keys(verdicts)).toEqual(expect.arrayContaining(Object.keys(right)));
    expect(inference.dateFormat).toMatchObject({ value: 'dd.MM.yy', certainty: 'sure' });
    expect(inference.mapping.amount).toMatchObject({ value: 'Betrag', certainty: 'sure' });
    expect(inference.identity).toMatchObject({
      idColumns: [],
      externalId: { value: null, certainty: 'sure' },
    });
  });

  it('dkb-ec-non_empty.csv: the preamble, Latin-1 text, decimal comma and the mapping', async () => {
    const inference = await infer('dkb-ec-non_empty.csv');
    expect(inference.encoding).toMatchObject({ value: 'windows-1252', certainty: 'sure' });
    expect(inference.skipLines).toMatchObject({ value: 6, certainty: 'sure' });
    expect(inference.headerPattern).toMatchObject({ value: '^Buchungstag;Wertstellung;', certainty: 'sure' });
    expect(inference.decimalSeparator).toMatchObject({ value: ',', certainty: 'sure' });
    expect(inference.dateFormat).toMatchObject({ value: 'dd.MM.yyyy', certainty: 'sure' });
    expect(inference.mapping.amount).toMatchObject({ value: 'Betrag (EUR)', certainty: 'sure' });
    expect(inference.mapping.bookingDate).toMatchObject({ value: 'Buchungstag', certainty: 'sure' });
    expect(inference.mapping.counterpartyName).toMatchObject({ value: 'Auftraggeber / Begünstigter' });
    // One row: no column can be shown to be an ID, and none is claimed.
    expect(inference.identity.externalId).toMatchObject({ value: null, certainty: 'guess' });
  });

  it('dkb-ec-empty.csv: the header alone; what only rows could prove is a guess at most', async () => {
    const inference = await infer('dkb-ec-empty.csv');
    expect(inference.sample.rows).toBe(0);
    expect(inference.delimiter).toMatchObject({ value: ';', certainty: 'sure' });
    // The rows would show them; the preamble's "01.01.2018" and "5.000,01 EUR" make them guesses.
    expect(inference.dateFormat).toMatchObject({ value: 'dd.MM.yyyy', certainty: 'guess' });
    expect(inference.decimalSeparator).toMatchObject({ value: ',', certainty: 'guess' });
    for (const field of ['amount', 'bookingDate', 'valueDate'])
      expect(inference.mapping[field]?.certainty, field).toBe('guess');
  });
});

/** The format and kind each shared sample is, by what the project knows of it (its name says its source). */
function expectedOf(file: string): { format: string; kind: string } | undefined {
  if (file.endsWith('.json') || file.endsWith('.md')) return undefined;
  if (file.endsWith('.xml')) return { format: 'camt', kind: 'transactions' };
  if (file.startsWith('mt940-')) return { format: 'mt940', kind: 'transactions' };
  if (file.startsWith('datev-')) return { format: 'datev', kind: 'transactions' };
  if (file.endsWith('.csv')) return { format: 'csv', kind: 'transactions' };
  return undefined;
}

describe.skipIf(whySharedSamplesMissing() !== undefined)(
  `init detects the format of every shared sample by content${whySharedSamplesMissing() ? ` (skipped: ${whySharedSamplesMissing()})` : ''}`,
  () => {
    const files = whySharedSamplesMissing()
      ? []
      : readdirSync(SHARED_SAMPLES, { withFileTypes: true })
          .filter((entry) => entry.isFile() && expectedOf(entry.name) !== undefined)
          .map((entry) => entry.name)
          .sort();

    it('finds the camt, MT940, DATEV and CSV samples', () => {
      const formats = new Set(files.map((file) => expectedOf(file)?.format));
      expect([...formats].sort()).toEqual(['camt', 'csv', 'datev', 'mt940']);
    });

    for (const file of files)
      it(`${file}: format and kind, never sure and wrong`, async () => {
        const expected = expectedOf(file) as { format: string; kind: string };
        const result = await inferFeed(await readSample(sharedSample(file)));
        if (!result.ok) throw new Error(`${file}: ${result.problem}`);
        const { format, kind, mapping } = result.inference;
        expect(format).toMatchObject({ value: expected.format, certainty: 'sure' });
        expect(kind.value).toBe(expected.kind);
        // Statements: the default mapping applies, nothing of it to ask.
        if (expected.format === 'camt' || expected.format === 'mt940') {
          expect(kind.certainty).toBe('sure');
          expect(mapping).toEqual({});
          expect(result.inference.sample.rows).toBeGreaterThanOrEqual(0);
        }
      });
  },
);
