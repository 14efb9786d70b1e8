import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../../src/config/load-feed.js';
import { openText } from '../../../src/sources/decode.js';
import { FileStopError } from '../../../src/sources/file-stop.js';
import { DATEV_CELLS } from '../../../src/sources/formats/datev-reader.js';
import { DatevSource } from '../../../src/sources/formats/datev-source.js';
import { readSource } from '../../../src/sources/formats/registry.js';
import { fixtureWriter, readOutcomes } from '../../support/source-files.js';

/** The demo's booking batch (Windows-1252, written for the demo, config/feeds/demo/exports/datev). */
const DEMO = 'config/feeds/demo/exports/datev/EXTF_Buchungsstapel_2026-02.csv';
const write = fixtureWriter('datev');

type Read =
  | { kind: 'row'; line: number; cell: (name: string) => string | undefined }
  | { kind: 'problem'; line: number; problem: string };

async function readItems(text: NodeJS.ReadableStream): Promise<Read[]> {
  const source = DatevSource.parse({ format: 'datev', path: 'x' });
  const reading = readSource('datev', source, 'EXTF_Buchungsstapel.csv', text);
  const out: Read[] = [];
  for await (const batch of reading.batches) {
    expect(batch.length).toBeGreaterThan(0);
    for (const item of batch)
      out.push(
        item.kind === 'problem'
          ? { kind: 'problem', line: item.problem.line, problem: item.problem.problem }
          : { kind: 'row', line: item.row.line, cell: (name) => item.row.cell(name) },
      );
  }
  return out;
}

const readText = (text: string) => readItems(Readable.from([text]));

/** A small booking batch: the sample's meta header with the range and category given, a few columns. */
function batch(
  rows: string[],
  {
    category = '21',
    name = 'Buchungsstapel',
    from = '20180201',
    to = '20180228',
    fiscalYear = '20180101',
  } = {},
): string {
  const meta = `"EXTF";700;${category};"${name}";9;20180306102500000;;"XY";"";"";1001;456;${fiscalYear};4;${from};${to};"";"";1;;0;"EUR";"";"";"";"";"";;;"";""`;
  const header =
    'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);Belegdatum;Buchungstext';
  return [meta, header, ...rows].map((line) => `${line}\r\n`).join('');
}

async function stopOf(text: string): Promise<FileStopError> {
  const error = await readText(text).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileStopError);
  return error as FileStopError;
}

describe('the datev reader on the demo EXTF batch', () => {
  it('reads every booking at its line: signed amounts, completed dates, Windows-1252 column names', async () => {
    const items = await readItems(openText(DEMO, 'auto').text);
    expect(items.map((i) => [i.kind, i.line])).toEqual([3, 4, 5, 6, 7, 8].map((line) => ['row', line]));
    const [first, second] = items.flatMap((i) => (i.kind === 'row' ? [i] : []));
    // H: the Konto (1200, the bank) is credited: money out.
    expect(first?.cell('signedAmount')).toBe('-48,90');
    expect(first?.cell('documentDate')).toBe('2026-02-03');
    expect(first?.cell('currency')).toBe('EUR');
    expect(first?.cell('Konto')).toBe('1200');
    expect(first?.cell('Gegenkonto (ohne BU-Schlüssel)')).toBe('4930');
    expect(first?.cell('BU-Schlüssel')).toBe('');
    expect(first?.cell('Buchungstext')).toBe('Toner und Papier Bürobedarf Weiß');
    expect(first?.cell('Umsatz (ohne Soll/Haben-Kz)')).toBe('48,90');
    // S: the Konto (10000, a customer) is debited.
    expect(second?.cell('signedAmount')).toBe('1190,00');
    expect(second?.cell('documentDate')).toBe('2026-02-05');
    expect(second?.cell('Belegfeld 1')).toBe('RE2026-021');
    // The en dash (0x96 in Windows-1252) of the column names.
    expect(second?.cell('Beleginfo – Art 1')).toBe('');
    expect(second?.cell('KOST1 – Kostenstelle')).toBe('');
  });

  it('offers its column names from line 2 and then the added cells', async () => {
    const source = DatevSource.parse({ format: 'datev', path: 'x' });
    const reading = readSource('datev', source, 's.csv', openText(DEMO, 'auto').text);
    for await (const _ of reading.batches);
    const columns = await reading.columns;
    expect(columns?.names).toHaveLength(116 + DATEV_CELLS.length);
    expect(columns?.names.slice(0, 2)).toEqual(['Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen']);
    expect(columns?.names.slice(-3)).toEqual([...DATEV_CELLS]);
    expect(columns?.names).toContain('Zusatzinformation – Inhalt 1');
  });
});

describe('the datev reader: document dates', () => {
  it('completes DDMM (and DMM without its leading zero) with the year of the range', async () => {
    const items = await readText(
      batch(['1,00;"S";"";1200;8400;0102;"a"', '2,00;"H";"USD";1200;8400;102;"b"']),
    );
    const rows = items.flatMap((i) => (i.kind === 'row' ? [i] : []));
    expect(rows.map((r) => r.cell('documentDate'))).toEqual(['2018-02-01', '2018-02-01']);
    expect(rows.map((r) => r.cell('currency'))).toEqual(['EUR', 'USD']);
  });

  it('picks the right year when the range spans a year end (fiscal year from July)', async () => {
    const text = batch(['1,00;"S";"";1200;8400;1512;"a"', '1,00;"S";"";1200;8400;1501;"b"'], {
      fiscalYear: '20180701',
      from: '20181201',
      to: '20190131',
    });
    const rows = (await readText(text)).flatMap((i) => (i.kind === 'row' ? [i] : []));
    expect(rows.map((r) => r.cell('documentDate'))).toEqual(['2018-12-15', '2019-01-15']);
  });

  it('rejects a booking whose date is outside the range, or no date, at its line; the others go on', async () => {
    const items = await readText(
      batch([
        '1,00;"S";"";1200;8400;3112;"a"',
        '2,00;"S";"";1200;8400;3002;"b"',
        '3,00;"S";"";1200;8400;2802;"c"',
      ]),
    );
    expect(items).toEqual([
      {
        kind: 'problem',
        line: 3,
        problem:
          'field "Belegdatum" is "3112": expected a day and month DDMM in the batch\'s range 2018-02-01 to 2018-02-28 (meta header Datum vom/bis); 31.12. is no day in it',
      },
      { kind: 'problem', line: 4, problem: expect.stringContaining('field "Belegdatum" is "3002"') },
      { kind: 'row', line: 5, cell: expect.any(Function) },
    ]);
  });
});

describe('the datev reader: bad bookings and bad files', () => {
  it('rejects a bad amount or S/H flag, naming each field and what was expected', async () => {
    const items = await readText(
      batch([
        '-24,95;"X";"";1200;4940;2102;"a"',
        '24.95;"S";"";1200;4940;2102;"b"',
        '1,5;"H";"";1200;4940;2102;"c"',
        '0,00;"H";"";1200;4940;2102;"d"',
      ]),
    );
    expect(items[0]).toEqual({
      kind: 'problem',
      line: 3,
      problem:
        'field "Umsatz (ohne Soll/Haben-Kz)" is "-24,95": expected an unsigned amount above zero with a decimal comma, e.g. 1234,56; field "Soll/Haben-Kennzeichen" is "X": expected "S" (Soll, debit) or "H" (Haben, credit)',
    });
    expect(items[1]).toMatchObject({ kind: 'problem', line: 4, problem: expect.stringContaining('"24.95"') });
    expect(items[2]).toMatchObject({ kind: 'row', line: 5 });
    if (items[2]?.kind === 'row') expect(items[2].cell('signedAmount')).toBe('-1,5');
    expect(items[3]).toMatchObject({
      kind: 'problem',
      line: 6,
      problem: expect.stringContaining('is "0,00": expected'),
    });
  });

  it('stops a file of another category (16 Debitoren/Kreditoren) naming file, line 1 and the field', async () => {
    const error = await stopOf(
      batch(['1,00;"S";"";1200;8400;0102;"a"'], { category: '16', name: 'Debitoren/Kreditoren' }),
    );
    expect(error.code).toBe('SOURCE_LAYOUT');
    expect(error.message).toBe(
      'EXTF_Buchungsstapel.csv: line 1: meta header field 3 (Formatkategorie) is "16": expected 21 (Buchungsstapel), the only DATEV category read as bookings; 16 is Debitoren/Kreditoren',
    );
  });

  it('stops a file without a meta header, or with a garbled one', async () => {
    const noMeta = batch(['1,00;"S";"";1200;8400;0102;"a"']).split('\r\n').slice(1).join('\r\n');
    expect((await stopOf(noMeta)).message).toBe(
      'EXTF_Buchungsstapel.csv: line 1: meta header field 1 (Kennzeichen) is "Umsatz (ohne Soll/Haben-Kz)": expected "EXTF" or "DTVF": line 1 of a DATEV export is its meta header',
    );
    expect((await stopOf(batch([], { from: '2018021' }))).message).toContain(
      'meta header field 15 (Datum vom) is "2018021": expected the batch\'s first date as YYYYMMDD',
    );
    expect((await stopOf(batch([], { from: '20170201' }))).message).toContain(
      'field 15 (Datum vom) is "20170201": expected a date in the fiscal year starting 2018-01-01',
    );
    expect(await stopOf('')).toMatchObject({
      message: expect.stringContaining('line 1: the meta header is missing'),
    });
    expect((await stopOf(batch([]).split('\r\n')[0] as string)).message).toContain(
      'line 2: the column names are missing',
    );
  });

  it('stops a file whose line 2 lacks a column a booking needs', async () => {
    const text = batch(['1,00;"S";"";1200;8400;0102;"a"']).replace('Belegdatum', 'Datum');
    expect((await stopOf(text)).message).toBe(
      'EXTF_Buchungsstapel.csv: line 2 (the column names) has no "Belegdatum": expected the columns of a Buchungsstapel',
    );
  });
});

describe('a datev feed through openRecords', () => {
  it('maps the added cells with no dateFormat or decimal setting of its own', async () => {
    const { feed } = parseFeed(
      [
        'name: datev',
        'accountId: 1',
        'kind: transactions',
        'source: {path: x.csv, format: datev}',
        'mapping: {bookingDate: documentDate, amount: signedAmount, currency: currency, purpose: Buchungstext}',
        'bankAccount: {externalId: bank, accountName: Bank, bankName: Bank}',
      ].join('\n'),
      '/feeds/datev.yaml',
    );
    const outcomes = await readOutcomes(feed, write(readFileSync(DEMO)));
    expect(outcomes.map((o) => o.kind)).toEqual(Array(6).fill('mapped'));
    expect(outcomes[0]).toMatchObject({
      record: {
        line: 3,
        amount: '-48.9',
        derivedId: true,
        payload: {
          bookingDate: '2026-02-03',
          amount: -48.9,
          currency: 'EUR',
          purpose: 'Toner und Papier Bürobedarf Weiß',
        },
      },
    });
    expect(outcomes[1]).toMatchObject({
      record: { line: 4, amount: '1190', payload: { bookingDate: '2026-02-05' } },
    });
  });
});
