import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { Feed, type FeedInput } from '../../../src/config/feed.js';
import { openRecords, recordsOf } from '../../../src/sources/open-records.js';
import type { MapOutcome, MappedRecord } from '../../../src/sources/record.js';
import { fixtureWriter, readOutcomes } from '../../support/source-files.js';

/**
 * Messy real-world exports, each read end to end through openRecords (decode, CSV / JSON Lines,
 * mapping, contract validation), asserting the exact payloads, files and line numbers.
 */

const write = fixtureWriter('quirks');

const GERMAN_CSV = {
  path: 'x',
  format: 'csv',
  delimiter: ';',
  decimalSeparator: ',',
  dateFormat: 'dd.MM.yyyy',
} as const;
const ID_DATE_AMOUNT_TEXT = { externalId: 'ID', bookingDate: 'Datum', amount: 'Betrag', purpose: 'Text' };
const HEADER = 'ID;Datum;Betrag;Text';

function txFeed(
  source: Partial<FeedInput['source']> = {},
  mapping: FeedInput['mapping'] = ID_DATE_AMOUNT_TEXT,
): Feed {
  return Feed.parse({
    name: 'quirks',
    accountId: 1001,
    kind: 'transactions',
    // A JSON Lines source has none of the CSV keys (a csv key there is a feed error).
    source: source.format === 'jsonl' ? { path: 'x', ...source } : { ...GERMAN_CSV, ...source },
    bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
    mapping,
  });
}

type Brief =
  | { line: number; payload: MappedRecord['payload'] }
  | { line: number; rejected: string; message: string }
  | { line: number; excluded: string };

function brief(outcome: MapOutcome): Brief {
  const { line } = outcome.record;
  switch (outcome.kind) {
    case 'mapped':
      return { line, payload: outcome.record.payload };
    case 'rejected':
      return { line, rejected: outcome.record.code, message: outcome.record.message };
    case 'excluded':
      return { line, excluded: outcome.record.reason };
  }
}

/** Writes the fixture, reads it through openRecords, checks every outcome names this file. */
async function readFile(feed: Feed, content: string | Uint8Array, ext = 'csv'): Promise<MapOutcome[]> {
  const path = write(content, ext);
  const outcomes = await readOutcomes(feed, path);
  expect(outcomes.map((o) => o.record.file)).toEqual(outcomes.map(() => path));
  return outcomes;
}

async function read(feed: Feed, content: string | Uint8Array, ext = 'csv'): Promise<Brief[]> {
  return (await readFile(feed, content, ext)).map(brief);
}

const tx = (line: number, externalId: string, bookingDate: string, amount: number, purpose: string) => ({
  line,
  payload: { externalId, bookingDate, amount, purpose },
});

/** A rejection as `brief` shows it: the row's line, the code and the exact reason. */
const invalid = (line: number, message: unknown) => ({ line, rejected: 'INVALID_RECORD', message });
const unreadable = (line: number, message: unknown) => ({ line, rejected: 'UNREADABLE_ROW', message });

const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

/** Two plain rows most tests surround with a quirk, and what they map to at a given line. */
const ROW_A = 'A1;05.02.2026;1,00;a';
const ROW_B = 'A2;06.02.2026;2,00;b';
const a = (line: number) => tx(line, 'A1', '2026-02-05', 1, 'a');
const b = (line: number) => tx(line, 'A2', '2026-02-06', 2, 'b');

describe('encodings and byte-order marks', () => {
  it('decodes Windows-1252 bytes (ü, ö, ß, €, „“) into the payload', async () => {
    const bytes = iconv.encode(`${HEADER}\r\nA1;05.02.2026;-12,50 €;Dübel Größe „Öl“\r\n`, 'win1252');
    expect([...bytes]).toContain(0x80); // the euro sign is the single byte 0x80 here
    expect(await read(txFeed({ encoding: 'windows-1252' }), bytes)).toEqual([
      tx(2, 'A1', '2026-02-05', -12.5, 'Dübel Größe „Öl“'),
    ]);
  });

  it('decodes ISO-8859-1 bytes, where 0x80 is a C1 control and not the euro sign', async () => {
    const bytes = Buffer.concat([
      iconv.encode(`${HEADER}\nA1;05.02.2026;7,00;Überweisung Müller `, 'iso88591'),
      Buffer.from([0x80, 0x0a]),
    ]);
    expect(await read(txFeed({ encoding: 'iso-8859-1' }), bytes)).toEqual([
      tx(2, 'A1', '2026-02-05', 7, 'Überweisung Müller \u0080'),
    ]);
  });

  it.each([
    ['with', '\ufeff'],
    ['without', ''],
  ])('reads UTF-8 %s a byte-order mark, the first column found by its name', async (_, bom) => {
    expect(await read(txFeed(), `${bom}${csv(HEADER, 'A1;05.02.2026;3,00;Café Zürich ☕')}`)).toEqual([
      tx(2, 'A1', '2026-02-05', 3, 'Café Zürich ☕'),
    ]);
  });
});

describe('quoting', () => {
  it('keeps quoted delimiters, line breaks and doubled quotes inside a cell', async () => {
    const text = csv(
      HEADER,
      'A1;05.02.2026;-5,00;"Miete; Februar',
      'Wohnung 3"',
      'A2;06.02.2026;"1.000,00";"Er sagte ""danke"""',
    );
    expect(await read(txFeed(), text)).toEqual([
      tx(2, 'A1', '2026-02-05', -5, 'Miete; Februar\nWohnung 3'),
      tx(4, 'A2', '2026-02-06', 1000, 'Er sagte "danke"'),
    ]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR-only', '\r'],
  ])('numbers the rows after a quoted multi-line field correctly (%s)', async (_, eol) => {
    const text = [HEADER, 'A1;05.02.2026;1,00;"eins', 'zwei', 'drei"', ROW_B, ''].join(eol);
    expect(await read(txFeed(), text)).toEqual([
      tx(2, 'A1', '2026-02-05', 1, `eins${eol}zwei${eol}drei`),
      b(5),
    ]);
  });

  it('reads the rows before an unclosed quote, even those held back as possible footers, reports where it broke and reads on', async () => {
    const text = csv(HEADER, ROW_A, ROW_B, 'A3;07.02.2026;3,00;"kein Ende', 'A4;08.02.2026;4,00;d');
    expect(await read(txFeed({ skipFooterLines: 1 }), text)).toEqual([
      a(2),
      b(3),
      unreadable(4, expect.stringMatching(/never closed; the row is rejected, reading goes on at line 5/)),
      // line 5 is the footer line
    ]);
  });

  it('keeps a stray quote inside an unquoted cell (27" monitor) and reads on', async () => {
    const text = csv(HEADER, 'A1;05.02.2026;-199,00;Monitor 27" Zoll', ROW_B);
    expect(await read(txFeed(), text)).toEqual([tx(2, 'A1', '2026-02-05', -199, 'Monitor 27" Zoll'), b(3)]);
  });
});

describe('amounts', () => {
  it('reads decimal commas with thousands points and currency codes or symbols (1.234,56 EUR)', async () => {
    const text = csv(
      HEADER,
      'A1;05.02.2026;1.234,56 EUR;a',
      'A2;05.02.2026;-1.234.567,89 €;b',
      'A3;05.02.2026;EUR 22,59-;c',
      'A4;05.02.2026;1 000,5;d',
    );
    expect(await read(txFeed(), text)).toEqual([
      tx(2, 'A1', '2026-02-05', 1234.56, 'a'),
      tx(3, 'A2', '2026-02-05', -1234567.89, 'b'),
      tx(4, 'A3', '2026-02-05', -22.59, 'c'),
      tx(5, 'A4', '2026-02-05', 1000.5, 'd'),
    ]);
  });

  it('reads decimal points with thousands commas and currency symbols ($26.67)', async () => {
    const feed = txFeed({ delimiter: ',', decimalSeparator: '.', dateFormat: 'yyyy-MM-dd' });
    const text = csv(
      'ID,Datum,Betrag,Text',
      'B1,2026-02-05,$26.67,coffee',
      'B2,2026-02-05,"$1,234.56",rent',
      'B3,2026-02-05,-$5.00,refund',
      'B4,2026-02-05,"(1,000.00)",fee',
    );
    expect(await read(feed, text)).toEqual([
      tx(2, 'B1', '2026-02-05', 26.67, 'coffee'),
      tx(3, 'B2', '2026-02-05', 1234.56, 'rent'),
      tx(4, 'B3', '2026-02-05', -5, 'refund'),
      tx(5, 'B4', '2026-02-05', -1000, 'fee'),
    ]);
  });

  it('rejects an amount the configured separator would misread, naming line, column and expectation', async () => {
    const text = csv(HEADER, 'A1;05.02.2026;1.5;a', 'A2;05.02.2026;0,01;b');
    expect(await read(txFeed(), text)).toEqual([
      invalid(
        2,
        'amount (column "Betrag"): "1.5" is not an amount with decimal separator "," (expected e.g. 1.234,56)',
      ),
      tx(3, 'A2', '2026-02-05', 0.01, 'b'),
    ]);
  });

  it('combines separate debit and credit columns into one signed amount', async () => {
    const feed = txFeed({}, { ...ID_DATE_AMOUNT_TEXT, amount: { debit: 'Soll', credit: 'Haben' } });
    const text = csv(
      'ID;Datum;Soll;Haben;Text',
      'D1;05.02.2026;1.234,56;;Miete',
      'D2;05.02.2026;;99,90 EUR;Erstattung',
      'D3;05.02.2026;;;leer',
      'D4;05.02.2026;10,00;2,50;beides',
    );
    expect(await read(feed, text)).toEqual([
      tx(2, 'D1', '2026-02-05', -1234.56, 'Miete'),
      tx(3, 'D2', '2026-02-05', 99.9, 'Erstattung'),
      invalid(4, 'amount: both column "Soll" and column "Haben" are empty'),
      tx(5, 'D4', '2026-02-05', -7.5, 'beides'),
    ]);
  });

  it('signs amounts by an S/H column (Soll negative, Haben positive)', async () => {
    const feed = txFeed(
      {},
      { ...ID_DATE_AMOUNT_TEXT, amount: { column: 'Umsatz', sign: { column: 'S/H' } } },
    );
    const text = csv(
      'ID;Datum;Umsatz;S/H;Text',
      'S1;05.02.2026;1.234,56;S;Miete',
      'S2;05.02.2026;99,90;H;Gutschrift',
      'S3;05.02.2026;5,00; s ;klein',
      'S4;05.02.2026;5,00;X;falsch',
    );
    expect(await read(feed, text)).toEqual([
      tx(2, 'S1', '2026-02-05', -1234.56, 'Miete'),
      tx(3, 'S2', '2026-02-05', 99.9, 'Gutschrift'),
      tx(4, 'S3', '2026-02-05', -5, 'klein'),
      invalid(5, 'amount (column "S/H"): sign "X" is neither S/D/- (negative) nor H/C/+ (positive)'),
    ]);
  });
});

describe('dates', () => {
  it('reads dates without leading zeros (5.2.2026) under dd.MM.yyyy', async () => {
    const text = csv(
      HEADER,
      'A1;5.2.2026;1,00;a',
      'A2;05.2.2026;1,00;b',
      'A3;5.12.2026;1,00;c',
      'A4;31.2.2026;1,00;d',
    );
    expect(await read(txFeed(), text)).toEqual([
      a(2),
      tx(3, 'A2', '2026-02-05', 1, 'b'),
      tx(4, 'A3', '2026-12-05', 1, 'c'),
      invalid(
        5,
        'bookingDate (column "Datum"): "31.2.2026" is not a calendar date (read as day 31, month 2, year 2026)',
      ),
    ]);
  });

  it('reads two-digit years with the POSIX pivot (26 -> 2026, 99 -> 1999)', async () => {
    const text = csv(HEADER, 'A1;05.02.26;1,00;a', 'A2;31.12.99;1,00;b', 'A3;1.1.68;1,00;c');
    expect(await read(txFeed({ dateFormat: 'dd.MM.yy' }), text)).toEqual([
      a(2),
      tx(3, 'A2', '1999-12-31', 1, 'b'),
      tx(4, 'A3', '2068-01-01', 1, 'c'),
    ]);
  });
});

describe('preamble and footer lines', () => {
  const PREAMBLE = ['Kontoauszug Girokonto', 'Zeitraum;01.02.2026;28.02.2026', ''];
  const DATA = [ROW_A, ROW_B];
  const AT_LINES_5_AND_6 = [a(5), b(6)];

  it('skips preamble lines by count, keeping real line numbers', async () => {
    expect(await read(txFeed({ skipLines: 3 }), csv(...PREAMBLE, HEADER, ...DATA))).toEqual(AT_LINES_5_AND_6);
  });

  it('skips preamble lines up to the header pattern, keeping real line numbers', async () => {
    expect(await read(txFeed({ headerPattern: '^ID;Datum;' }), csv(...PREAMBLE, HEADER, ...DATA))).toEqual(
      AT_LINES_5_AND_6,
    );
  });

  it.each([
    ['by count', { skipLines: 3 }],
    ['by pattern', { headerPattern: '^ID;Datum;' }],
  ])('skips a preamble line with a stray quote (%s) instead of failing the file', async (_, skip) => {
    const preamble = ['Konto: 1234567 "Girokonto" (EUR)', 'Zeitraum;01.02.2026;28.02.2026', ''];
    expect(await read(txFeed(skip), csv(...preamble, HEADER, ...DATA))).toEqual(AT_LINES_5_AND_6);
  });

  it('reports a header pattern that matches no line instead of reading an empty file', async () => {
    expect(
      await read(txFeed({ headerPattern: '^ID;Datum;' }), csv('Datum;Betrag', '05.02.2026;1,00')),
    ).toEqual([
      unreadable(1, 'no line up to line 2 matches headerPattern "^ID;Datum;"; the header row was not found'),
    ]);
  });

  it('drops footer lines after the data by count, not counting empty trailing lines', async () => {
    const text = csv(HEADER, ...DATA, 'Saldo;;3,00;', 'Anzahl Umsätze: 2', '', '');
    expect(await read(txFeed({ skipFooterLines: 2 }), text)).toEqual([a(2), b(3)]);
  });

  it('drops balance lines before, between and after the data by pattern', async () => {
    const text = csv(
      HEADER,
      'Anfangssaldo;;100,00;',
      ROW_A,
      'Zwischensumme;;101,00;',
      ROW_B,
      'Endsaldo;;103,00;',
    );
    const feed = txFeed({ skipRowsMatching: ['^(Anfangs|End)saldo;', '^Zwischensumme;'] });
    expect(await read(feed, text)).toEqual([a(3), b(5)]);
  });
});

describe('columns', () => {
  const DUPLICATED = csv('ID;Datum;Text;Betrag;Text', 'A1;05.02.2026;Miete;-500,00;Vermieter GmbH');

  it('addresses duplicated column names by position', async () => {
    const feed = txFeed(
      {},
      { ...ID_DATE_AMOUNT_TEXT, purpose: { column: 3 }, counterpartyName: { column: 5 } },
    );
    expect(await read(feed, DUPLICATED)).toEqual([
      {
        line: 2,
        payload: {
          externalId: 'A1',
          bookingDate: '2026-02-05',
          amount: -500,
          purpose: 'Miete',
          counterpartyName: 'Vermieter GmbH',
        },
      },
    ]);
  });

  it('rejects every row, naming the positions, when a duplicated name is mapped by name', async () => {
    expect(await read(txFeed(), DUPLICATED)).toEqual([
      invalid(
        2,
        'the feed\'s mapping does not fit this file: mapping.purpose: column "Text" appears more than once (positions 3, 5); address it by position, e.g. {column: 3}',
      ),
    ]);
  });
});

describe('line endings and empty lines', () => {
  it('reads CR-only line endings', async () => {
    const text = [HEADER, ROW_A, ROW_B, ''].join('\r');
    expect(await read(txFeed(), text)).toEqual([a(2), b(3)]);
  });

  it('reads CRLF line endings without a carriage return left in the last cell', async () => {
    const text = [HEADER, ROW_A, ROW_B, ''].join('\r\n');
    expect(await read(txFeed(), text)).toEqual([a(2), b(3)]);
  });

  it('ignores empty, blank and delimiter-only lines between and after the rows', async () => {
    const text = csv(HEADER, ROW_A, '', ROW_B, '', '   ', ';;;', '', '');
    expect(await read(txFeed(), text)).toEqual([a(2), b(4)]);
  });
});

describe('derived externalIds', () => {
  const feed = txFeed({}, { bookingDate: 'Datum', amount: 'Betrag', purpose: 'Text' });
  const KANTINE = '05.02.2026;-4,50;Kantine';

  async function ids(...rows: string[]): Promise<string[]> {
    const outcomes = await readFile(feed, csv('Datum;Betrag;Text', ...rows));
    return outcomes.map((o) => {
      if (o.kind !== 'mapped') throw new Error(`expected a mapped record, got ${JSON.stringify(o)}`);
      expect(o.record.derivedId).toBe(true);
      expect(o.record.payload).toMatchObject({ externalId: o.record.externalId });
      return o.record.externalId;
    });
  }

  it('gives identical rows (same day, same amount) distinct IDs by occurrence number', async () => {
    const outcomes = await readFile(feed, csv('Datum;Betrag;Text', KANTINE, KANTINE, KANTINE));
    const [first] = await ids(KANTINE);
    const base = first?.replace(/-1$/, '');
    expect(base).toMatch(/^erpb2-[\w-]{22}$/);
    expect(outcomes).toEqual(
      [1, 2, 3].map((occurrence) => ({
        kind: 'mapped',
        record: {
          file: expect.any(String),
          line: occurrence + 1,
          externalId: `${base}-${occurrence}`,
          derivedId: true,
          payload: {
            externalId: `${base}-${occurrence}`,
            bookingDate: '2026-02-05',
            amount: -4.5,
            purpose: 'Kantine',
          },
          amount: '-4.5',
        },
      })),
    );
  });

  it('derives the same IDs on every read, unchanged by an unrelated row inserted before them', async () => {
    const other = '05.02.2026;-4,50;Kiosk';
    const later = '06.02.2026;-4,50;Kantine';
    const [k1, k2, l1] = await ids(KANTINE, KANTINE, later);
    expect(await ids(KANTINE, KANTINE, later)).toEqual([k1, k2, l1]);
    const [o1, ...rest] = await ids(other, KANTINE, other, KANTINE, later);
    expect(rest).toEqual([k1, o1?.replace(/-1$/, '-2'), k2, l1]);
  });

  it('numbers occurrences per identical content: an identical row inserted before takes the next number', async () => {
    const [k1, k2] = await ids(KANTINE, KANTINE);
    // By design the rows cannot be told apart, so the first two keep -1 and -2 and the new one is -3.
    expect(await ids(KANTINE, KANTINE, KANTINE)).toEqual([k1, k2, k2?.replace(/-2$/, '-3')]);
  });
});

describe('JSON Lines', () => {
  const feed = txFeed(
    { format: 'jsonl', decimalSeparator: '.', dateFormat: 'yyyy-MM-dd' },
    { externalId: 'id', bookingDate: 'date', amount: 'amount', purpose: 'booking.text' },
  );
  const row = (id: string, date: string, amount: string, text: string) =>
    JSON.stringify({ id, date, amount, booking: { text } });

  it('rejects a bad line in the middle with its line number and reads the rest', async () => {
    const text = csv(
      row('J1', '2026-02-05', '-12.5', 'eins'),
      '{"id":"J2","date":"2026-02-05","amount":',
      '',
      row('J3', '2026-02-06', '1234.56', 'drei'),
      '[1,2]',
      row('J4', '2026-02-07', 'abc', 'vier'),
      row('J5', '2026-02-08', '5', 'fünf'),
    );
    expect(await read(feed, text, 'jsonl')).toEqual([
      tx(1, 'J1', '2026-02-05', -12.5, 'eins'),
      unreadable(2, expect.stringMatching(/^not valid JSON: /)),
      tx(4, 'J3', '2026-02-06', 1234.56, 'drei'),
      unreadable(5, 'expected a JSON object on this line'),
      invalid(
        6,
        'amount (column "amount"): "abc" is not an amount with decimal separator "." (expected e.g. 1,234.56)',
      ),
      tx(7, 'J5', '2026-02-08', 5, 'fünf'),
    ]);
  });

  it('reads JSON Lines with a byte-order mark and CRLF or CR-only line endings', async () => {
    const lines = [row('J1', '2026-02-05', '1', 'eins'), row('J2', '2026-02-06', '2', 'zwei')];
    const expected = [tx(1, 'J1', '2026-02-05', 1, 'eins'), tx(2, 'J2', '2026-02-06', 2, 'zwei')];
    expect(await read(feed, `\ufeff${lines.join('\r\n')}\r\n`, 'jsonl')).toEqual(expected);
    expect(await read(feed, `${lines.join('\r')}\r`, 'jsonl')).toEqual(expected);
  });
});

describe('contract validation before sending', () => {
  it("rejects a plan whose name exceeds the spec's 100 characters, naming the field", async () => {
    const feed = Feed.parse({
      name: 'quirks-plans',
      accountId: 1001,
      kind: 'plans',
      source: { path: 'x', format: 'csv' },
      mapping: { name: 'Name', amount: 'Betrag', period: { const: 'MONTHLY' }, date: 'Monat' },
    });
    const text = csv(
      'Name,Monat,Betrag',
      'Miete,2026-02-01,-500',
      `${'x'.repeat(101)},2026-02-01,-1`,
      'Strom,2026-02-01,-80',
    );
    const plan = (line: number, name: string, amount: number) => ({
      line,
      payload: {
        name,
        amount,
        period: 'MONTHLY',
        date: '2026-02-01',
        type: 'ONE_TIME',
        replaceCurrentValuesForThePeriod: true,
      },
    });
    expect(await read(feed, text)).toEqual([
      plan(2, 'Miete', -500),
      invalid(3, 'name: Too big: expected string to have <=100 characters'),
      plan(4, 'Strom', -80),
    ]);
  });

  it('rejects a transaction with an over-long externalId or an unknown currency, naming the field', async () => {
    const feed = txFeed({}, { ...ID_DATE_AMOUNT_TEXT, currency: 'Währung' });
    const longId = 'L'.repeat(256);
    const text = csv(
      'ID;Datum;Betrag;Text;Währung',
      `${longId};05.02.2026;1,00;a;EUR`,
      'A2;05.02.2026;1,00;b;EURO',
      'A3;05.02.2026;1,00;c;USD',
    );
    const outcomes = await readFile(feed, text);
    expect(outcomes.map(brief)).toEqual([
      invalid(2, 'externalId: Too big: expected string to have <=255 characters'),
      invalid(3, expect.stringMatching(/^currency: Invalid option: expected one of .*\|"EUR"\|/)),
      {
        line: 4,
        payload: { externalId: 'A3', bookingDate: '2026-02-05', amount: 1, purpose: 'c', currency: 'USD' },
      },
    ]);
    expect(outcomes[0]?.record).toMatchObject({ externalId: longId });
  });
});

describe('streaming', () => {
  it('retains a flat heap reading 200,000 rows through openRecords', { timeout: 180_000 }, async () => {
    const ROWS = 200_000;
    const path = write('', 'csv');
    const out = createWriteStream(path);
    out.write(`${HEADER}\n`);
    for (let i = 0; i < ROWS; i++) {
      const amount = `-${i % 10_000},${String(i % 100).padStart(2, '0')} EUR`;
      const line = `M${i};${(i % 28) + 1}.2.2026;${amount};Lastschrift Vertrag ${i} Kundennummer ${1_000_000 + i}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');

    // Samples are taken after a full collection: what the reader retains, not garbage not yet collected.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let mapped = 0;
    let lastLine = 0;
    for await (const outcome of recordsOf(openRecords(txFeed(), path))) {
      if (outcome.kind === 'mapped') mapped++;
      lastLine = outcome.record.line;
      if (lastLine % 10_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    }
    expect(mapped).toBe(ROWS);
    expect(lastLine).toBe(ROWS + 1);
    // Streaming retains about 2 MB here; holding the 200,000 outcomes would retain about 70 MB.
    expect((peak - baseline) / 2 ** 20).toBeLessThan(32);
  });
});
