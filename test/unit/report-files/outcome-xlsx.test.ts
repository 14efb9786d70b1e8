import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as yauzl from 'yauzl';
import { OUTCOME_COLUMNS } from '../../../src/report-files/file-sink.js';
import { OUTCOME_XLSX_COLUMNS, writeOutcomesXlsx } from '../../../src/report-files/outcome-xlsx.js';
import { columnLetters, exactAsNumber, xmlText } from '../../../src/report-files/xlsx-writer.js';
import { readSourceBytes, Source } from '../../../src/sources/formats/registry.js';
import { openBytes } from '../../../src/sources/raw-file.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';

const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-outcome-xlsx-'));
let n = 0;

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** Every row of one sheet read back with the project's own xlsx reader: the header, then cells by column. */
async function readSheet(path: string, sheet: string) {
  const source = Source.parse({ format: 'xlsx', path: 'x.xlsx', sheet });
  const reading = readSourceBytes('xlsx', source, path, openBytes(path).input);
  const rows: (string | undefined)[][] = [];
  for await (const batch of reading.batches)
    for (const item of batch) {
      if (item.kind !== 'row') throw new Error(`unexpected ${item.kind}`);
      rows.push(OUTCOME_COLUMNS.map((c) => item.row.cell(c)));
    }
  return { columns: (await reading.columns)?.names, rows };
}

/** The stored XML of one part of the workbook (to see cell types the reader's text does not show). */
async function partXml(path: string, part: string): Promise<string> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(readFileSync(path), { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName !== part) return zip.readEntry();
      zip.openReadStream(entry, (e, stream) => {
        if (e) return reject(e);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
    });
    zip.on('end', () => reject(new Error(`no ${part}`)));
    zip.readEntry();
  });
}

const OUTCOMES: RecordOutcome[] = [
  {
    file: 'umsätze.csv',
    line: 2,
    externalId: '1234567890123456',
    outcome: 'created',
    serviceId: 9007199254740,
    amount: '-22.59',
  },
  {
    file: 'umsätze.csv',
    line: 3,
    externalId: '=1+1',
    outcome: 'rejected',
    code: 'AMOUNT_INVALID',
    message: 'Müller & Söhne <GmbH> "x"\nzweite Zeile',
    amount: '12345678901234567.89',
  },
  {
    file: 'umsätze.csv',
    line: 4,
    externalId: '007',
    outcome: 'skipped',
    message: 'a\u0001b _x0041_ c',
    amount: '0.10',
  },
  { file: 'db', line: 5, outcome: 'failed', key: '000123', amount: '1000' },
];

/** What each cell reads back as: numbers as Excel shows them, text as written. */
const EXPECTED = [
  [
    'umsätze.csv',
    '2',
    '1234567890123456',
    'created',
    '9007199254740',
    undefined,
    undefined,
    '-22.59',
    'run-1',
    undefined,
  ],
  [
    'umsätze.csv',
    '3',
    '=1+1',
    'rejected',
    undefined,
    'AMOUNT_INVALID',
    'Müller & Söhne <GmbH> "x"\nzweite Zeile',
    '12345678901234567.89',
    'run-1',
    undefined,
  ],
  [
    'umsätze.csv',
    '4',
    '007',
    'skipped',
    undefined,
    undefined,
    'a\u0001b _x0041_ c',
    '0.10',
    'run-1',
    undefined,
  ],
  ['db', '5', undefined, 'failed', undefined, undefined, undefined, '1000', 'run-1', '000123'],
];

describe('outcomes.xlsx', () => {
  it('reads back cell by cell with our xlsx reader: a bold header, IDs as text, exact amounts as numbers', async () => {
    const path = join(dir, `o${n++}.xlsx`);
    await writeOutcomesXlsx(path, each(OUTCOMES), 'run-1');
    const { columns, rows } = await readSheet(path, 'Outcomes');
    expect(columns).toEqual([...OUTCOME_COLUMNS]);
    expect(rows.map((r) => r.map((c) => (c === '' ? undefined : c)))).toEqual(EXPECTED);

    const sheet = await partXml(path, 'xl/worksheets/sheet1.xml');
    // IDs are strings whatever their digits (no 1.2E+15, leading zeros kept).
    expect(sheet).toContain(
      '<c r="C2" t="inlineStr"><is><t xml:space="preserve">1234567890123456</t></is></c>',
    );
    expect(sheet).toContain('<c r="E2" t="inlineStr">');
    // An exact amount is a number (its minus sign too); one Excel would round (17 digits) is text.
    expect(sheet).toContain('<c r="H2"><v>-22.59</v></c>');
    expect(sheet).toContain('<c r="H3" t="inlineStr"><is><t xml:space="preserve">12345678901234567.89</t>');
    expect(sheet).toContain('<c r="B3"><v>3</v></c>');
    // Column widths, the header bold (style 1).
    expect(sheet).toContain('<col min="7" max="7" width="60" customWidth="1"/>');
    expect(sheet).toContain('<c r="A1" s="1" t="inlineStr"><is><t>file</t></is></c>');
    expect(OUTCOME_XLSX_COLUMNS.map((c) => c.name)).toEqual([...OUTCOME_COLUMNS]);
  });

  it('starts a new sheet, with its own header row, after the row limit', async () => {
    const path = join(dir, `o${n++}.xlsx`);
    await writeOutcomesXlsx(path, each(OUTCOMES), 'run-1', 3);
    const first = await readSheet(path, 'Outcomes');
    const second = await readSheet(path, 'Outcomes 2');
    expect(first.columns).toEqual([...OUTCOME_COLUMNS]);
    expect(second.columns).toEqual([...OUTCOME_COLUMNS]);
    const norm = (rows: (string | undefined)[][]) =>
      rows.map((r) => r.map((c) => (c === '' ? undefined : c)));
    expect(norm(first.rows)).toEqual(EXPECTED.slice(0, 3));
    expect(norm(second.rows)).toEqual(EXPECTED.slice(3));
    const workbook = await partXml(path, 'xl/workbook.xml');
    expect(workbook).toContain(
      '<sheet name="Outcomes" sheetId="1" r:id="rId1"/><sheet name="Outcomes 2" sheetId="2" r:id="rId2"/>',
    );
  });

  it('writes an empty run as a header row only', async () => {
    const path = join(dir, `o${n++}.xlsx`);
    await writeOutcomesXlsx(path, each([]), 'run-1');
    const { columns, rows } = await readSheet(path, 'Outcomes');
    expect(columns).toEqual([...OUTCOME_COLUMNS]);
    expect(rows).toEqual([]);
  });

  it('takes a decimal as a number only when Excel keeps every digit (15 significant)', () => {
    expect(exactAsNumber('-22.59')).toBe(true);
    expect(exactAsNumber('123456789012345')).toBe(true);
    expect(exactAsNumber('0.000000000000001')).toBe(true);
    expect(exactAsNumber('1234567890123.456')).toBe(false);
    expect(exactAsNumber('1e5')).toBe(false);
    expect(exactAsNumber('12,5')).toBe(false);
    expect(columnLetters(0)).toBe('A');
    expect(columnLetters(25)).toBe('Z');
    expect(columnLetters(26)).toBe('AA');
    expect(xmlText('a<b&"c"\u0002_x0041_')).toBe('a&lt;b&amp;&quot;c&quot;_x0002__x005F_x0041_');
  });
});
