import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOfRun } from '../../support/run-checks.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';
import { rowOf, xlsxOf } from '../../support/xlsx-files.js';

/**
 * Issue 25 point 7: an export has its header. A header that lacks the mapped columns stops the
 * file (exit 2, SOURCE_LAYOUT, naming them) whether or not rows follow it; a header that has them
 * and no rows is an empty export (0 records, exit 0).
 */

const ACCOUNT = 1001;
const BANK = 'bankAccount: {externalId: header-test, accountName: Header test, bankName: Testbank}';

function feedWith(
  name: string,
  file: string,
  content: string | Buffer,
  source: string[],
  mapping: string,
): string {
  const dir = mkdtempSync(join(tmpdir(), `erp-bridge-header-${name}-`));
  writeFileSync(join(dir, file), content);
  const yaml = [
    `name: header-${name}`,
    `accountId: ${ACCOUNT}`,
    'kind: transactions',
    'source:',
    `  path: ${file}`,
    ...source.map((line) => `  ${line}`),
    `mapping: ${mapping}`,
    BANK,
  ].join('\n');
  writeFileSync(join(dir, 'feed.yaml'), `${yaml}\n`);
  return join(dir, 'feed.yaml');
}

const CSV_SOURCE = ['format: csv', 'delimiter: ";"', 'decimalSeparator: ","', 'dateFormat: dd.MM.yyyy'];
const CSV_MAPPING = '{externalId: ID, bookingDate: Datum, amount: Betrag, purpose: Text}';
const csvFeed = (name: string, text: string) => feedWith(name, 'export.csv', text, CSV_SOURCE, CSV_MAPPING);

const XLSX_SOURCE = ['format: xlsx', 'decimalSeparator: ","', 'dateFormat: dd.MM.yyyy'];
const xlsxFeed = (name: string, header: string[]) =>
  feedWith(
    name,
    'export.xlsx',
    xlsxOf({ sheets: [{ name: 'Umsätze', rows: rowOf(1, header) }] }),
    XLSX_SOURCE,
    CSV_MAPPING,
  );

/** A DATEV EXTF meta header (version 700, category 21 Buchungsstapel, fiscal year 2026, EUR). */
const DATEV_META =
  '"EXTF";700;21;"Buchungsstapel";13;20260305120000000;;"RE";"";"";29098;55003;20260101;4;20260201;20260228;"Test";"";1;;0;"EUR";;"";;;"03";;;"";""';
const DATEV_MAPPING =
  '{bookingDate: documentDate, amount: signedAmount, currency: currency, purpose: Buchungstext}';
const datevFeed = (name: string, columns: string) =>
  feedWith(
    name,
    'extf.csv',
    iconv.encode(`${DATEV_META}\r\n${columns}\r\n`, 'win1252'),
    ['format: datev'],
    DATEV_MAPPING,
  );

describe('an export has its header (issue 25 point 7)', () => {
  let h: SyncHarness;
  beforeAll(async () => {
    h = await syncHarness();
  });
  afterAll(() => h.close());

  const expectLayoutStop = async (feed: string, ...named: string[]) => {
    const run = await h.run(feed);
    expect(exitCodeOfRun(run)).toBe(2);
    expect(run.summary.stopReason).toMatchObject({ code: 'SOURCE_LAYOUT', exitCode: 2 });
    for (const text of named) expect(run.summary.stopReason?.message).toContain(text);
    expect(run.summary.counts.created).toBe(0);
    return run;
  };

  it('csv: some other file (one line, no data rows) stops with exit 2 naming every missing column and the file', async () => {
    await expectLayoutStop(
      // A comma splits it, but into none of the mapped columns: no wrong-delimiter hint
      // (csv-delimiter.ts), the missing columns are what is wrong.
      csvFeed('other-file', 'Dear customer, your statement is attached.\n'),
      'export.csv',
      'mapping.externalId: column "ID" is not in the header; mapping.bookingDate: column "Datum" is not in the header; ' +
        'mapping.amount: column "Betrag" is not in the header; mapping.purpose: column "Text" is not in the header; ' +
        'the header has: Dear customer, your statement is attached.',
    );
  });

  it('csv: a header that another delimiter splits into the mapped columns stops naming that delimiter', async () => {
    const run = await expectLayoutStop(
      csvFeed('comma-header', 'ID,Datum,Betrag,Text\nA,05.01.2026,"1,00",x\n'),
      'export.csv: the header reads as one column with the feed\'s delimiter ";"',
      'set source.delimiter to ","',
    );
    expect(run.summary.stopReason?.message).not.toContain('is not in the header');
  });

  it('csv: a header without the mapped columns and without rows stops too, naming the header it found', async () => {
    await expectLayoutStop(
      csvFeed('wrong-header', 'Nr;Datum;Wert;Text\n'),
      'mapping.externalId: column "ID" is not in the header; mapping.amount: column "Betrag" is not in the header; the header has: Nr, Datum, Wert, Text',
    );
  });

  it('csv: the header with its columns and no rows is an empty export: 0 records, exit 0, on a rerun too', async () => {
    const feed = csvFeed('empty', 'ID;Datum;Betrag;Text\r\n');
    for (const run of [await h.run(feed), await h.run(feed)]) {
      expect(exitCodeOfRun(run)).toBe(0);
      expect(run.summary.state).toBe('completed');
      expect(run.summary.files.map((f) => f.records)).toEqual([0]);
      expect(run.summary.counts).toEqual({ created: 0, updated: 0, skipped: 0, rejected: 0, failed: 0 });
      expect(run.summary.stopReason).toBeUndefined();
    }
  });

  it('xlsx: a sheet whose header lacks a mapped column and has no rows stops; with its columns it is empty', async () => {
    await expectLayoutStop(
      xlsxFeed('xlsx-wrong', ['ID', 'Datum', 'Wert', 'Text']),
      'column "Betrag" is not in the header',
    );
    const run = await h.run(xlsxFeed('xlsx-empty', ['ID', 'Datum', 'Betrag', 'Text']));
    expect(exitCodeOfRun(run)).toBe(0);
    expect(run.summary.files.map((f) => f.records)).toEqual([0]);
  });

  it('DATEV: column names without a booking column stop even without bookings; a Buchungsstapel without bookings is empty', async () => {
    await expectLayoutStop(
      datevFeed('datev-wrong', 'Konto;Gegenkonto (ohne BU-Schlüssel);Belegdatum;Buchungstext'),
      'extf.csv',
      'line 2 (the column names) has no "Umsatz (ohne Soll/Haben-Kz)", "Soll/Haben-Kennzeichen"',
    );
    // The booking columns are there, but the mapping names one the batch does not have.
    await expectLayoutStop(
      datevFeed(
        'datev-mapping',
        'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);Belegdatum',
      ),
      'column "Buchungstext" is not in the header',
    );
    const run = await h.run(
      datevFeed(
        'datev-empty',
        'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);Belegdatum;Buchungstext',
      ),
    );
    expect(exitCodeOfRun(run)).toBe(0);
    expect(run.summary.files.map((f) => f.records)).toEqual([0]);
  });

  it('csv and xlsx: an empty file (0 bytes, or only whitespace and a byte-order mark) has no header: it stops, naming the file and the mapped columns', async () => {
    const least =
      'an export has at least its header line with the mapped columns "ID", "Datum", "Betrag", "Text"; an ERP with nothing to export writes the header alone';
    await expectLayoutStop(csvFeed('csv-0', ''), `export.csv: the file is empty (0 bytes): ${least}`);
    await expectLayoutStop(
      csvFeed('csv-blank', '\ufeff \r\n\r\n'),
      'export.csv: the file is empty (8 bytes, only whitespace or a byte-order mark): an export has at least its header line',
    );
    await expectLayoutStop(
      feedWith('xlsx-0', 'export.xlsx', '', XLSX_SOURCE, CSV_MAPPING),
      `export.xlsx: the file is empty (0 bytes): ${least.replace('header line', 'header row')}`,
    );
  });

  it('MT940, camt and DATEV: an empty file holds no statement (no batch) and stops, naming what the least file holds', async () => {
    const statement = (name: string, file: string, format: string) =>
      feedWith(name, file, '', [`format: ${format}`], '{}');
    await expectLayoutStop(
      statement('mt940-0', 'day.sta', 'mt940'),
      'day.sta: the file is empty (0 bytes): a statement file has at least one statement',
    );
    await expectLayoutStop(
      statement('camt-0', 'day.xml', 'camt'),
      'day.xml: the file is empty (0 bytes): a camt file has at least its Document',
    );
    await expectLayoutStop(
      feedWith('datev-0', 'extf.csv', '\r\n', ['format: datev'], DATEV_MAPPING),
      'extf.csv: the file is empty (2 bytes, only whitespace or a byte-order mark): a DATEV booking batch has at least its meta header',
    );
  });

  it('JSON Lines have no header: an empty file is an empty export, a line without the mapped keys is its own rejection', async () => {
    const jsonl = (name: string, text: string) =>
      feedWith(
        name,
        'export.jsonl',
        text,
        ['format: jsonl'],
        '{externalId: id, bookingDate: date, amount: amount, purpose: text}',
      );
    const empty = await h.run(jsonl('jsonl-empty', ''));
    expect(exitCodeOfRun(empty)).toBe(0);
    expect(empty.summary.files.map((f) => f.records)).toEqual([0]);
    const other = await h.run(jsonl('jsonl-other', '{"hello": "world"}\n'));
    expect(other.summary.counts).toMatchObject({ created: 0, rejected: 1 });
  });
});
