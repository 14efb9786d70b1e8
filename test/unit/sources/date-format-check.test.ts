import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import { dateFormatCheck, RICH_TEXT_RUN } from '../../../src/sources/date-format-check.js';
import { xlsxRawText } from '../../../src/sources/formats/xlsx-raw-text.js';
import { XlsxSource } from '../../../src/sources/formats/xlsx-source.js';
import { asExportFile } from '../../../src/sources/locations/export-file.js';
import { contradicts, swappedDates } from '../../../src/sources/values/date-swap.js';
import { fixtureWriter, readUntilStop } from '../../support/source-files.js';
import { rowOf, xlsxOf } from '../../support/xlsx-files.js';

/**
 * A declared date format the file contradicts (day and month exchanged) stops the file before
 * its first record (issue 26, point 1), wherever in the file the evidence is.
 */
const write = fixtureWriter('dates');

const CSV_MAPPING = { externalId: 'ID', bookingDate: 'Datum', amount: 'Betrag', purpose: 'Text' };

function feedOf(source: Record<string, unknown>, mapping: Record<string, string> = CSV_MAPPING) {
  return Feed.parse({
    name: 'dates',
    accountId: 1001,
    kind: 'transactions',
    source: { path: 'x', ...source },
    bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
    mapping,
  });
}

const feed = (dateFormat: string, encoding = 'utf-8') =>
  feedOf({ format: 'csv', delimiter: ';', decimalSeparator: ',', dateFormat, encoding });

const read = readUntilStop;

/** `count` rows dated day.month.2026 with day and month <= 12. */
const earlyRows = (count: number) =>
  Array.from({ length: count }, (_, i) => `R${i};${(i % 12) + 1}.${(i % 11) + 1}.2026;1,00;x`);

/** Deterministic pseudo-random integers below n (xorshift32): the same texts on every run. */
function randomBelow(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

describe('day and month exchanged', () => {
  it('names the exchanged format and tells a contradiction from a date that fits or fits neither', () => {
    expect(swappedDates('MM.dd.yyyy').swapped.text).toBe('dd.MM.yyyy');
    expect(swappedDates('d/M/yy').swapped.text).toBe('M/d/yy');
    expect(swappedDates('yyyy-MM-dd').swapped.text).toBe('yyyy-dd-MM');
    const dates = swappedDates('MM.dd.yyyy');
    expect(contradicts('13.01.2026', dates)).toBe(true);
    expect(contradicts('01.13.2026', dates)).toBe(false);
    expect(contradicts('05.06.2026', dates)).toBe(false);
    expect(contradicts('02.30.2026', dates)).toBe(false);
  });

  it('finds candidates in any text in the declared shape with 13 to 31 where the month stands', () => {
    const { candidates } = swappedDates('MM/dd/yyyy');
    expect(candidates.test('A;13/01/2026;x')).toBe(true);
    expect(candidates.test('{"d":"25\\/03\\/2026"}')).toBe(true);
    expect(candidates.test('A;01/13/2026;x')).toBe(false);
  });

  it('finds a candidate exactly where the whole shape of the format stands, its edges searched short', () => {
    // The shape as written before the edges were shortened: every token at its full width.
    const fullShape = (format: string) =>
      new RegExp(
        format.replace(/yyyy|yy|dd|d|MM|M|[^a-zA-Z]/g, (token) => {
          if (token.startsWith('y')) return '(?:\\d{4}|\\d{2})';
          if (token.startsWith('d')) return '\\d{1,2}';
          if (token.startsWith('M')) return '(?:1[3-9]|2\\d|3[01])';
          if (token === '/') return '\\\\?/';
          return token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        }),
      );
    // Deterministic texts of digits and separators, dense in near-dates.
    const next = randomBelow(7);
    const pieces = [
      ...['1', '2', '3', '0', '9', '13', '25', '31', '12', '2026', '026', '-', '.', '/', '\\/', ' ', 'x'],
      ...['-13-', '-25-', '.31.', '.12.', '/13/', '\\/25\\/', '2025'],
    ];
    const texts = Array.from({ length: 6000 }, () =>
      Array.from({ length: 2 + next(8) }, () => pieces[next(pieces.length)]).join(''),
    );
    for (const format of ['yyyy-MM-dd', 'dd.MM.yyyy', 'MM/dd/yyyy', 'd/M/yy', 'yyyyMMdd', 'M.d.yyyy']) {
      const full = fullShape(format);
      const { candidates } = swappedDates(format);
      const differing = texts.filter((text) => candidates.test(text) !== full.test(text));
      expect({ format, differing }).toEqual({ format, differing: [] });
      expect({ format, found: texts.some((text) => full.test(text)) }).toEqual({ format, found: true });
    }
  });
});

describe("a workbook's rich-text run, which no scan of the stored XML can clear", () => {
  it('is found as /<(?:\\w+:)?r>/ finds it: `<r>` or a prefixed `<x:r>`, no other tag', () => {
    const regex = /<(?:\w+:)?r>/;
    const texts = [
      '<si><r><t>24/02</t></r></si>',
      '<x:si><x:r><x:t>a</x:t></x:r></x:si>',
      'r><r>',
      '<row r="2"><c r="A2"><v>1</v></c></row>',
      '</r>',
      '<:r>',
      '< x:r>',
      '<a:b:r>',
      '<ab_9:r>',
      'r>',
      '<rr>',
      'text r> here',
    ];
    const next = randomBelow(11);
    const alphabet = '<r>:x/ ';
    for (let i = 0; i < 3000; i++)
      texts.push(Array.from({ length: 3 + (i % 9) }, () => alphabet[next(alphabet.length)]).join(''));
    const differing = texts.filter((text) => RICH_TEXT_RUN.test(text) !== regex.test(text));
    expect(differing).toEqual([]);
    expect(texts.filter((text) => regex.test(text)).length).toBeGreaterThan(20);
  });
});

describe('a file that contradicts its declared date format', () => {
  it('stops before any record when the only contradiction is the last of 1,500 rows', async () => {
    const path = write(['ID;Datum;Betrag;Text', ...earlyRows(1500), 'LAST;13.01.2026;1,00;x'].join('\n'));
    const { outcomes, stop } = await read(feed('MM.dd.yyyy'), path);
    expect(outcomes).toEqual([]);
    expect(stop?.code).toBe('SOURCE_LAYOUT');
    expect(stop?.message).toContain('column "Datum" (mapping.bookingDate)');
    expect(stop?.message).toContain('dateFormat MM.dd.yyyy');
    expect(stop?.message).toContain('set source.dateFormat to dd.MM.yyyy');
    expect(stop?.message).toContain('line 1502 "13.01.2026"');
  });

  it('reads a file whose every date fits both ways as declared', async () => {
    const path = write(['ID;Datum;Betrag;Text', ...earlyRows(30)].join('\n'));
    const { outcomes, stop } = await read(feed('MM.dd.yyyy'), path);
    expect(stop).toBeUndefined();
    expect(outcomes.map((o) => o.kind)).toEqual(Array(30).fill('mapped'));
  });

  it('leaves a candidate in a column that is no mapped date alone', async () => {
    const path = write(['ID;Datum;Betrag;Text', 'A;01.13.2026;1,00;Rechnung vom 13.01.2026'].join('\n'));
    const { outcomes, stop } = await read(feed('MM.dd.yyyy'), path);
    expect(stop).toBeUndefined();
    expect(outcomes.map((o) => o.kind)).toEqual(['mapped']);
  });

  it('stops a UTF-16 file too, whose bytes the candidate watch cannot read', async () => {
    const text = ['ID;Datum;Betrag;Text', ...earlyRows(20), 'LAST;25.03.2026;1,00;x'].join('\n');
    const path = write(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const { outcomes, stop } = await read(feed('MM.dd.yyyy', 'utf-16le'), path);
    expect(outcomes).toEqual([]);
    expect(stop?.message).toContain('line 22 "25.03.2026"');
  });

  it('sees a contradicting date that a chunk boundary of the encoding pass splits', async () => {
    const text = ['ID;Datum;Betrag;Text', 'A;01.02.2026;1,00;x', 'B;13.01.2026;1,00;x'].join('\n');
    const f = feed('MM.dd.yyyy');
    const check = dateFormatCheck(f);
    const split = text.indexOf('13.01') + 2;
    check?.watch.push(Buffer.from(text.slice(0, split)));
    check?.watch.push(Buffer.from(text.slice(split)));
    check?.watch.end();
    const stop = await check?.check(asExportFile(write(text)), { name: 'utf-8', chosenBy: 'feed' });
    expect(stop?.message).toContain('line 3 "13.01.2026"');
  });
});

describe('an xlsx workbook whose text date cells contradict the declared format', () => {
  const xlsxFeed = feedOf(
    { format: 'xlsx', dateFormat: 'MM/dd/yyyy' },
    { externalId: 'ID', bookingDate: 'Date', amount: 'Amount' },
  );
  // Style 1 is a date (number format 14): the reader writes such a cell in the feed's format.
  const workbook = (dates: (string | { d: number })[]) =>
    xlsxOf({
      cellFormats: [0, 14],
      sheets: [
        {
          name: 'S',
          rows: [
            rowOf(1, ['ID', 'Date', 'Amount']),
            ...dates.map((date, i) => rowOf(i + 2, [`X${i}`, date, { n: '1' }])),
          ].join(''),
        },
      ],
    });

  it('stops before any record when a late text cell reads only with day and month exchanged', async () => {
    const dates = [...Array.from({ length: 40 }, (_, i) => `0${(i % 9) + 1}/02/2026`), '24/02/2026'];
    const { outcomes, stop } = await read(xlsxFeed, write(workbook(dates), 'xlsx'));
    expect(outcomes).toEqual([]);
    expect(stop?.code).toBe('SOURCE_LAYOUT');
    expect(stop?.message).toContain('column "Date" (mapping.bookingDate)');
    expect(stop?.message).toContain('they fit dd/MM/yyyy');
    expect(stop?.message).toContain('line 42 "24/02/2026"');
  });

  it('a date split over rich-text runs is still seen: the cheap scan of the stored XML does not clear such a workbook', async () => {
    const early = Array.from({ length: 40 }, (_, i) =>
      rowOf(i + 2, [`X${i}`, `0${(i % 9) + 1}/02/2026`, { n: '1' }]),
    );
    // "24/02" and "/2026" in two runs of one inline string: no run holds the date whole.
    const split =
      '<row r="42"><c r="A42" t="inlineStr"><is><t>X40</t></is></c>' +
      '<c r="B42" t="inlineStr"><is><r><t>24/02</t></r><r><t>/2026</t></r></is></c>' +
      '<c r="C42"><v>1</v></c></row>';
    const book = xlsxOf({
      cellFormats: [0, 14],
      sheets: [{ name: 'S', rows: [rowOf(1, ['ID', 'Date', 'Amount']), ...early, split].join('') }],
    });
    const { outcomes, stop } = await read(xlsxFeed, write(book, 'xlsx'));
    expect(outcomes).toEqual([]);
    expect(stop?.code).toBe('SOURCE_LAYOUT');
    expect(stop?.message).toContain('line 42 "24/02/2026"');
  });

  it('scans only the sheet the feed reads: swapped dates on another sheet neither stop nor cost it a second read', async () => {
    const swapped = Array.from({ length: 3 }, (_, i) => `2${i}/02/2026`);
    const book = xlsxOf({
      cellFormats: [0, 14],
      sheets: [
        {
          name: 'Bookings',
          rows: [rowOf(1, ['ID', 'Date', 'Amount']), rowOf(2, ['X', '02/01/2026', { n: '1' }])].join(''),
        },
        {
          name: 'Archive',
          rows: [
            rowOf(1, ['ID', 'Date', 'Amount']),
            ...swapped.map((d, i) => rowOf(i + 2, [`A${i}`, d, { n: '1' }])),
          ].join(''),
        },
      ],
    });
    const path = write(book, 'xlsx');
    const input = { ...asExportFile(path), countRead: () => {} };
    const scanned = async (sheet?: string) => {
      const source = XlsxSource.parse({ format: 'xlsx', path, ...(sheet ? { sheet } : {}) });
      let text = '';
      for await (const chunk of xlsxRawText(path, input, source)) text += chunk;
      return text;
    };
    // Step 1 of the first sheet finds no candidate: cleared without reading its cells.
    expect(await scanned()).toContain('02/01/2026');
    expect(await scanned()).not.toContain('20/02/2026');
    expect(await scanned('Archive')).toContain('20/02/2026');
    const first = await read(xlsxFeed, path);
    expect(first.stop).toBeUndefined();
    expect(first.outcomes.map((o) => o.kind)).toEqual(['mapped']);
    const archive = feedOf(
      { format: 'xlsx', dateFormat: 'MM/dd/yyyy', sheet: 'Archive' },
      { externalId: 'ID', bookingDate: 'Date', amount: 'Amount' },
    );
    const named = await read(archive, path);
    expect(named.stop?.code).toBe('SOURCE_LAYOUT');
    expect(named.stop?.message).toContain('line 2 "20/02/2026"');
  });

  it('reads date-typed cells, which the reader writes in the declared format, as they are', async () => {
    const { outcomes, stop } = await read(xlsxFeed, write(workbook([{ d: 45322 }, '01/31/2024']), 'xlsx'));
    expect(stop).toBeUndefined();
    expect(outcomes.map((o) => o.kind)).toEqual(['mapped', 'mapped']);
  });
});

describe('formats whose reader writes the dates itself', () => {
  it('MT940, camt and DATEV take no date-format check (nothing to contradict, no second read); csv does', () => {
    const statement = (format: string) =>
      Feed.parse({
        name: 'statements',
        accountId: 1001,
        kind: 'transactions',
        source: { path: 'x', format },
        bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
      });
    expect(dateFormatCheck(statement('mt940'))).toBeUndefined();
    expect(dateFormatCheck(statement('camt'))).toBeUndefined();
    expect(dateFormatCheck(feed('dd.MM.yyyy'))).toBeDefined();
  });
});
