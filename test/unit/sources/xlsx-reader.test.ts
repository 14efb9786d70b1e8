import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import { FileStopError } from '../../../src/sources/file-stop.js';
import { readSourceBytes, Source } from '../../../src/sources/formats/registry.js';
import { formatDate, plainDecimal } from '../../../src/sources/formats/xlsx-cell.js';
import { isDateFormat } from '../../../src/sources/formats/xlsx-workbook.js';
import { openBytes } from '../../../src/sources/raw-file.js';
import type { SourceItem } from '../../../src/sources/row.js';
import { fixtureWriter, readOutcomes } from '../../support/source-files.js';
import { rowOf, type WorkbookSpec, xlsxOf, zipOf } from '../../support/xlsx-files.js';

const write = fixtureWriter('xlsx');

function xlsxSource(keys: Record<string, unknown> = {}) {
  const source = Source.parse({ format: 'xlsx', path: 'x.xlsx', ...keys });
  if (source.format !== 'xlsx') throw new Error('expected an xlsx source');
  return source;
}

/** Every item the reader yields for a workbook, and the bytes it counted as read. */
async function read(workbook: Buffer, keys: Record<string, unknown> = {}) {
  const path = write(workbook, 'xlsx');
  const opened = openBytes(path);
  const reading = readSourceBytes('xlsx', xlsxSource(keys), path, opened.input);
  const items: SourceItem[] = [];
  for await (const batch of reading.batches) items.push(...batch);
  return {
    items,
    columns: await reading.columns,
    bytesRead: opened.bytesRead(),
    size: workbook.length,
    sheet: reading.sheet?.(),
  };
}

const rowsOf = (items: SourceItem[]) => items.flatMap((i) => (i.kind === 'row' ? [i.row] : []));
const problemsOf = (items: SourceItem[]) => items.flatMap((i) => (i.kind === 'problem' ? [i.problem] : []));

/** The FileStopError a workbook stops with. */
async function stop(workbook: Buffer, keys: Record<string, unknown> = {}) {
  const error = await read(workbook, keys).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FileStopError);
  return error as FileStopError;
}

/** Style 0 general, style 1 a built-in date (14), style 2 a custom German date format. */
const STYLES: Pick<WorkbookSpec, 'cellFormats' | 'numFmts'> = {
  cellFormats: [0, 14, 164],
  numFmts: { 164: 'dd.mm.yyyy;@' },
};

describe('the xlsx reader', () => {
  it('reads typed cells: dates by their style, numbers as Excel shows them (15 significant digits), shared and inline strings, booleans, cached formula values', async () => {
    const rows = [
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="inlineStr"><is><t>Paid</t></is></c></row>',
      // 2024-01-31 in a built-in date style; amounts exactly as Excel stores them.
      '<row r="2"><c r="A2" s="1"><v>45322</v></c><c r="B2"><v>1234567.89</v></c><c r="C2" t="s"><v>3</v></c><c r="D2" t="b"><v>1</v></c></row>',
      // A custom date format with a time fraction; 0.1 and a formula whose cached value is 0.1+0.2.
      '<row r="3"><c r="A3" s="2"><v>45323.75</v></c><c r="B3"><f>0.1</f><v>0.1</v></c><c r="C3" t="inlineStr"><is><r><t>Ac</t></r><r><t>me_x000D_</t></r></is></c><c r="D3" t="b"><v>0</v></c></row>',
      '<row r="4"><c r="A4" s="1"><v>45324</v></c><c r="B4"><v>-0.005</v></c><c r="C4" t="str"><f>A1</f><v>formula text</v></c></row>',
      '<row r="5"><c r="A5" s="1"><v>45325</v></c><c r="B5"><v>0.30000000000000004</v></c><c r="C5"><v>1.5E-3</v></c></row>',
      '<row r="6"><c r="A6" s="1"><v>45326</v></c><c r="B6"><v>12345678901234.56</v></c></row>',
    ].join('');
    const { items, columns } = await read(
      xlsxOf({
        ...STYLES,
        sharedStrings: ['Date', 'Amount', 'Name', 'Müller & Söhne'],
        sheets: [{ name: 'Bookings', rows }],
      }),
    );
    expect(columns?.names).toEqual(['Date', 'Amount', 'Name', 'Paid']);
    const rowsRead = rowsOf(items);
    expect(rowsRead.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
    expect(rowsRead.map((r) => [r.cell('Date'), r.cell('Amount'), r.cell('Name'), r.cell('Paid')])).toEqual([
      ['2024-01-31', '1234567.89', 'Müller & Söhne', 'true'],
      ['2024-02-01', '0.1', 'Acme\r', 'false'],
      ['2024-02-02', '-0.005', 'formula text', ''],
      // What Excel shows, sums and exports for the doubles it stores with 16 and 17 digits.
      ['2024-02-03', '0.3', '0.0015', ''],
      ['2024-02-04', '12345678901234.6', '', ''],
    ]);
    expect(rowsRead[0]?.text()).toBe('2024-01-31\t1234567.89\tMüller & Söhne\ttrue');
    expect(problemsOf(items)).toEqual([]);
  });

  it('writes typed cells in the feed formats, so they parse like its text cells', async () => {
    const rows = `${rowOf(1, ['Date', 'Amount'])}${rowOf(2, [{ d: 45322 }, { n: '1234567.89' }])}${rowOf(3, ['31.01.2024', '1.234,50'])}`;
    const { items } = await read(xlsxOf({ ...STYLES, sheets: [{ name: 'S', rows }] }), {
      decimalSeparator: ',',
      dateFormat: 'dd.MM.yy',
    });
    expect(rowsOf(items).map((r) => [r.cell('Date'), r.cell('Amount')])).toEqual([
      ['31.01.2024', '1234567,89'],
      ['31.01.2024', '1.234,50'],
    ]);
  });

  it('reads the 1904 date system', async () => {
    const rows = `${rowOf(1, ['Date'])}${rowOf(2, [{ d: 43860 }])}`;
    const { items } = await read(xlsxOf({ ...STYLES, date1904: true, sheets: [{ name: 'S', rows }] }));
    expect(rowsOf(items)[0]?.cell('Date')).toBe('2024-01-31');
  });

  it('finds the header by headerPattern or headerRow, skips empty and matching rows, reads the named sheet', async () => {
    const report = [
      rowOf(1, ['Kontoauszug Januar']),
      rowOf(3, ['Buchungstag', 'Betrag']),
      rowOf(4, [{ d: 45322 }, { n: '10' }]),
      '<row r="5"><c r="A5" s="1"/></row>',
      rowOf(6, ['Summe', { n: '10' }]),
      rowOf(7, [{ d: 45323 }, { n: '-2.5' }]),
    ].join('');
    const spec = xlsxOf({
      ...STYLES,
      sheets: [
        { name: 'Notes', rows: rowOf(1, ['nothing']) },
        { name: 'Umsätze', rows: report },
      ],
    });
    for (const keys of [{ headerPattern: '^Buchungstag\\t' }, { headerRow: 3 }]) {
      const { items, columns } = await read(spec, {
        sheet: 'Umsätze',
        skipRowsMatching: ['^Summe'],
        ...keys,
      });
      expect(columns?.names).toEqual(['Buchungstag', 'Betrag']);
      expect(rowsOf(items).map((r) => [r.line, r.cell('Betrag')])).toEqual([
        [4, '10'],
        [7, '-2.5'],
      ]);
    }
    const missing = await read(spec, { sheet: 'Umsätze', headerPattern: '^Datum' });
    expect(problemsOf(missing.items)).toEqual([
      expect.objectContaining({
        line: 1,
        problem: 'no row matches headerPattern "^Datum"; the header row was not found',
      }),
    ]);
  });

  it('rejects a row whose cell holds no value that can be read, naming row and column; the other rows stand', async () => {
    const rows = [
      rowOf(1, ['Date', 'Amount']),
      rowOf(2, [{ d: 45322 }, { n: '1' }]),
      '<row r="3"><c r="A3" s="1"><v>45323</v></c><c r="B3" t="e"><v>#DIV/0!</v></c></row>',
      '<row r="4"><c r="A4" t="s"><v>99</v></c><c r="B4"><v>2</v></c></row>',
      '<row r="5"><c r="A5" s="1"><v>60</v></c><c r="B5"><v>3</v></c></row>',
      rowOf(6, [{ d: 45324 }, { n: '4' }]),
    ].join('');
    const { items } = await read(xlsxOf({ ...STYLES, sharedStrings: [], sheets: [{ name: 'S', rows }] }));
    expect(rowsOf(items).map((r) => r.line)).toEqual([2, 6]);
    expect(problemsOf(items)).toEqual([
      expect.objectContaining({
        line: 3,
        problem: 'row 3: column B ("Amount") holds the error value #DIV/0!, not a value',
      }),
      expect.objectContaining({
        line: 4,
        problem: 'row 4: column A ("Date") refers to shared string 99, which the workbook does not have',
      }),
      expect.objectContaining({
        line: 5,
        problem: 'row 5: column A ("Date") is 29 February 1900, a day that does not exist',
      }),
    ]);
  });

  it('reports a sheet that breaks off as one problem after the rows it could read', async () => {
    const rows = `${rowOf(1, ['Date', 'Amount'])}${rowOf(2, [{ d: 45322 }, { n: '1' }])}<row r="3"><c r="A3"><v>1</v></c></row></sheetData`;
    const workbook = xlsxOf({ ...STYLES, sheets: [{ name: 'S', rows }] });
    const { items } = await read(workbook);
    expect(rowsOf(items).map((r) => r.line)).toEqual([2, 3]);
    expect(problemsOf(items)).toEqual([
      expect.objectContaining({
        line: 4,
        problem: expect.stringMatching(/^sheet "S" cannot be read after row 3: /),
      }),
    ]);
  });

  it('counts the bytes it read from disk for the progress bar', async () => {
    const rows = [
      rowOf(1, ['Amount']),
      ...Array.from({ length: 2000 }, (_, i) => rowOf(i + 2, [{ n: `${i}.25` }])),
    ].join('');
    const { items, bytesRead, size } = await read(xlsxOf({ ...STYLES, sheets: [{ name: 'S', rows }] }));
    expect(rowsOf(items)).toHaveLength(2000);
    expect(bytesRead).toBeGreaterThan(size / 2);
    expect(bytesRead).toBeLessThanOrEqual(size);
  });
});

describe('xlsx files that cannot be read as a workbook stop before any row', () => {
  it('a file that is not a zip (a CSV renamed, an encrypted workbook)', async () => {
    const error = await stop(Buffer.from('Date;Amount\n2024-01-31;1,00\n'));
    expect(error.code).toBe('XLSX_UNREADABLE');
    expect(error.message).toMatch(/\.xlsx: not an xlsx workbook: the file is not a zip archive/);
  });

  it('a corrupt zip (truncated)', async () => {
    const whole = xlsxOf({ sheets: [{ name: 'S', rows: rowOf(1, ['A']) }] });
    const error = await stop(whole.subarray(0, whole.length - 30));
    expect(error.message).toMatch(/not an xlsx workbook: the file is not a zip archive/);
  });

  it('a zip that is no workbook', async () => {
    const error = await stop(zipOf({ 'word/document.xml': '<document/>' }));
    expect(error.message).toMatch(/not an xlsx workbook: the zip archive has no xl\/workbook\.xml/);
  });

  it('a sheet the workbook does not have, listing those it has', async () => {
    const error = await stop(
      xlsxOf({
        sheets: [
          { name: 'Jan', rows: '' },
          { name: 'Feb', rows: '' },
        ],
      }),
      { sheet: 'Umsätze' },
    );
    expect(error.message).toMatch(
      /: the workbook has no sheet named "Umsätze" \(source\.sheet\); its sheets: "Jan", "Feb"$/,
    );
  });
});

describe('which sheet is read', () => {
  const hiddenFirst = xlsxOf({
    sheets: [
      { name: 'Lookup', rows: rowOf(1, ['Key']) + rowOf(2, ['hidden row']), state: 'veryHidden' },
      { name: 'Macro', rows: rowOf(1, ['Key']) + rowOf(2, ['macro row']), state: 'hidden' },
      { name: 'Bookings', rows: rowOf(1, ['Key']) + rowOf(2, ['shown row']) },
    ],
  });

  it('reads the first sheet Excel shows, not a hidden one before it, and says which', async () => {
    const { items, sheet } = await read(hiddenFirst);
    expect(rowsOf(items).map((r) => r.cell('Key'))).toEqual(['shown row']);
    expect(sheet).toBe('Bookings');
  });

  it('reads a hidden sheet when the feed names it', async () => {
    for (const [name, row] of [
      ['Lookup', 'hidden row'],
      ['Macro', 'macro row'],
    ] as const) {
      const { items, sheet } = await read(hiddenFirst, { sheet: name });
      expect(rowsOf(items).map((r) => r.cell('Key'))).toEqual([row]);
      expect(sheet).toBe(name);
    }
  });

  it('stops a workbook whose every sheet is hidden, unless one is named', async () => {
    const allHidden = xlsxOf({ sheets: [{ name: 'Secret', rows: rowOf(1, ['Key']), state: 'hidden' }] });
    const error = await stop(allHidden);
    expect(error.code).toBe('XLSX_UNREADABLE');
    expect(error.message).toMatch(
      /every sheet is hidden \("Secret" \(hidden\)\); name the one to read in source\.sheet$/,
    );
  });
});

describe('xlsx through openRecords', () => {
  const feed = Feed.parse({
    name: 'x',
    accountId: 1,
    kind: 'transactions',
    source: { path: 'x.xlsx', format: 'xlsx' },
    bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
    mapping: { externalId: 'ID', bookingDate: 'Date', amount: 'Amount' },
  });

  it('maps typed cells as Excel shows them and rejects a row whose cell does not convert or is finer than its currency, with its row number', async () => {
    const rows = [
      rowOf(1, ['ID', 'Date', 'Amount']),
      rowOf(2, ['T1', { d: 45322 }, { n: '1234567.89' }]),
      rowOf(3, ['T2', { d: 45323 }, { n: '-0.005' }]),
      rowOf(4, ['T3', 'not a date', { n: '0.1' }]),
      // =0.1+0.2 as Excel stores it, and shows, sums and exports it: 0.3.
      rowOf(5, ['T4', { d: 45324 }, { n: '0.30000000000000004' }]),
      rowOf(6, ['T5', { d: 45325 }, { n: '1.5E-3' }]),
    ].join('');
    const outcomes = await readOutcomes(
      feed,
      write(xlsxOf({ ...STYLES, sheets: [{ name: 'S', rows }] }), 'xlsx'),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['mapped', 'rejected', 'rejected', 'mapped', 'rejected']);
    expect(outcomes[0]).toMatchObject({
      kind: 'mapped',
      record: { line: 2, payload: { bookingDate: '2024-01-31', amount: 1234567.89 } },
    });
    expect(outcomes[1]).toMatchObject({
      kind: 'rejected',
      record: {
        line: 3,
        code: 'INVALID_RECORD',
        message:
          'amount (column "Amount"): -0.005 has 3 fraction digits, more than EUR has (2); it is not rounded',
      },
    });
    expect(outcomes[2]).toMatchObject({
      kind: 'rejected',
      record: { line: 4, code: 'INVALID_RECORD', message: expect.stringContaining('Date') },
    });
    expect(outcomes[3]).toMatchObject({ kind: 'mapped', record: { line: 5, payload: { amount: 0.3 } } });
    expect(outcomes[4]).toMatchObject({
      kind: 'rejected',
      record: {
        line: 6,
        message:
          'amount (column "Amount"): 0.0015 has 4 fraction digits, more than EUR has (2); it is not rounded',
      },
    });
  });
});

describe('xlsx cells', () => {
  it('writes a stored number as plain decimal text without going through a float', () => {
    expect(plainDecimal('1234567.89')).toBe('1234567.89');
    expect(plainDecimal('-0.005')).toBe('-0.005');
    expect(plainDecimal('1.5E-3')).toBe('0.0015');
    expect(plainDecimal('1.2345678901234567E+20')).toBe('123456789012345670000');
    expect(plainDecimal('12345678901234567890.12')).toBe('12345678901234567890.12');
    expect(plainDecimal('.5')).toBe('0.5');
    expect(plainDecimal('1e')).toBeUndefined();
    expect(plainDecimal('abc')).toBeUndefined();
  });

  it('tells date formats from number formats', () => {
    for (const code of ['dd.mm.yyyy', 'd/m/yy;@', '[$-407]mmmm yy', 'mmm-yy', 'yyyy-mm-dd hh:mm'])
      expect(isDateFormat(code)).toBe(true);
    for (const code of ['0.00', '#,##0.00 "€"', '[Red]-#,##0', 'h:mm', 'mm:ss', '0.00E+00', '"day" 0'])
      expect(isDateFormat(code)).toBe(false);
  });
});

describe('xlsx source keys', () => {
  const issues = (keys: Record<string, unknown>) =>
    (Source.safeParse({ format: 'xlsx', path: 'x.xlsx', ...keys }).error?.issues ?? []).map(
      (i) => `${i.path.join('.')}: ${i.message}`,
    );

  it('has the shared keys without encoding, and its own', () => {
    expect(xlsxSource()).toEqual({
      format: 'xlsx',
      path: 'x.xlsx',
      decimalSeparator: '.',
      dateFormat: 'yyyy-MM-dd',
      skipRowsMatching: [],
      maxCellBytes: 1048576,
      maxSharedStringsBytes: 33554432,
      maxCompressionRatio: 100,
    });
    expect(issues({ encoding: 'utf-8' })).toEqual([': Unrecognized key: "encoding"']);
    expect(issues({ delimiter: ';' })).toEqual([': Unrecognized key: "delimiter"']);
  });

  it('refuses headerRow with headerPattern, and a pattern that does not compile, at load', () => {
    expect(issues({ headerRow: 2, headerPattern: '^ID' })).toEqual([
      'headerPattern: give headerRow or headerPattern, not both',
    ]);
    expect(issues({ skipRowsMatching: ['(x'] })).toEqual([
      expect.stringMatching(/^skipRowsMatching\.0: not a valid regular expression/),
    ]);
    expect(issues({ headerRow: 0 })).toHaveLength(1);
  });
});

describe("a date cell's day written in the feed's dateFormat", () => {
  it('writes every field and the text between them, the year always with four digits', () => {
    // What formatDate wrote before the format was split once: a replace of each field.
    const replaced = (year: number, month: number, day: number, format: string) =>
      format.replace(/yyyy|yy|dd|d|MM|M/g, (token) => {
        if (token.startsWith('y')) return String(year).padStart(4, '0');
        return String(token.startsWith('d') ? day : month).padStart(2, '0');
      });
    const formats = [
      'dd.MM.yyyy',
      'yyyy-MM-dd',
      'd/M/yy',
      'MM/dd/yyyy',
      'yyyyMMdd',
      'dd. MM. yyyy',
      'M-d-yy',
    ];
    const days: [number, number, number][] = [
      [2026, 1, 5],
      [2025, 12, 31],
      [999, 2, 28],
      [1900, 3, 1],
      [9999, 12, 31],
    ];
    for (const format of formats)
      for (const [year, month, day] of days)
        expect(formatDate(year, month, day, format)).toBe(replaced(year, month, day, format));
    expect(formatDate(2026, 3, 4, 'd.M.yy')).toBe('04.03.2026');
    expect(formatDate(2026, 3, 4, 'yyyyMMdd')).toBe('20260304');
  });
});
