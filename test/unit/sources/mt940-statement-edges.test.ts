import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_HELD_CHARS, MAX_HELD_ENTRIES } from '../../../src/sources/formats/mt940-reader.js';
import { Mt940Source } from '../../../src/sources/formats/mt940-source.js';
import { readSource } from '../../../src/sources/formats/registry.js';
import type { StatementTotals } from '../../../src/sources/formats/statement-totals.js';

/** What the reader hands out: rows (line, amount, currency, left out or not) and problems (line, text). */
type Item =
  | { row: number; amount?: string; currency?: string; purpose?: string; pending?: true }
  | { problem: number; text: string };

/** Reads `text` (in chunks of `chunk` characters) and lists its items and statements' figures. */
async function read(
  text: string,
  chunk = text.length,
): Promise<{ items: Item[]; statements: readonly StatementTotals[] }> {
  const pieces = text.match(new RegExp(`[\\s\\S]{1,${chunk}}`, 'g')) ?? [];
  const source = Mt940Source.parse({ format: 'mt940', path: 'x' });
  const reading = readSource('mt940', source, 'day.sta', Readable.from(pieces));
  const items: Item[] = [];
  for await (const batch of reading.batches)
    for (const item of batch) {
      if (item.kind === 'problem') {
        items.push({ problem: item.problem.line, text: item.problem.problem });
        continue;
      }
      const { row } = item;
      const cells = {
        amount: row.cell('amount'),
        currency: row.cell('currency'),
        purpose: row.cell('purpose'),
      };
      items.push({
        row: row.line,
        ...Object.fromEntries(Object.entries(cells).filter(([, v]) => v !== undefined)),
        ...(row.leftOut === undefined ? {} : { pending: true as const }),
      });
    }
  return { items, statements: reading.statements?.() ?? [] };
}

/** One statement's lines: header, opening balance (when given), `entries`, closing lines. */
const statement = (
  reference: string,
  entries: string[],
  opening = ':60F:C260101EUR100,00',
  closing = [':62F:C260131EUR101,00', '-'],
) => [
  `:20:${reference}`,
  ':25:DE11222220220222220200',
  ':28C:1/1',
  ...(opening ? [opening] : []),
  ...entries,
  ...closing,
];
const credit = (reference: string) => [
  `:61:2601050105C1,00NTRFNONREF//${reference}`,
  `:86:166?20SVWZ+${reference}`,
];

describe('mt940 framing around messages is left out without a problem', () => {
  it('SOH and ETX bytes around each message (mBank), on lines of their own or with the first and last', async () => {
    const text = [
      '\x01',
      ...statement('A', credit('A1')),
      '\x03',
      `\x01${statement('B', credit('B1')).join('\r\n')}\x03`,
      '\x01:20:C',
      ...statement('C', credit('C1')).slice(1, -1),
      '-\x03',
      '',
    ].join('\r\n');
    for (const chunk of [text.length, 5]) {
      const { items, statements } = await read(text, chunk);
      expect(items).toEqual([
        { row: 6, amount: '1.00', currency: 'EUR', purpose: 'A1' },
        { row: 15, amount: '1.00', currency: 'EUR', purpose: 'B1' },
        { row: 23, amount: '1.00', currency: 'EUR', purpose: 'C1' },
      ]);
      expect(statements.map((s) => [s.id, s.closing?.amount])).toEqual([
        ['A 1/1', '101.00'],
        ['B 1/1', '101.00'],
        ['C 1/1', '101.00'],
      ]);
    }
  });

  it('a `:940:` line before each message (Rabobank), also where no `-` ended the statement before it; `:942:` makes its entries pending', async () => {
    const first = statement('A', credit('A1'), ':60F:C260101EUR100,00', [':62F:C260131EUR101,00']);
    const text = [
      ':940:',
      ...first,
      ':940:',
      ...statement('B', credit('B1')),
      ':942:',
      ...statement('C', credit('C1'), ':34F:EURC0,00', ['-']),
    ].join('\n');
    const { items, statements } = await read(text);
    expect(items).toEqual([
      { row: 6, amount: '1.00', currency: 'EUR', purpose: 'A1' },
      { row: 14, amount: '1.00', currency: 'EUR', purpose: 'B1' },
      { row: 23, amount: '1.00', currency: 'EUR', purpose: 'C1', pending: true },
    ]);
    // The `:940:` after A's closing balance is not read as more of that balance.
    expect(statements.map((s) => [s.id, s.closing?.amount])).toEqual([
      ['A 1/1', '101.00'],
      ['B 1/1', '101.00'],
    ]);
  });

  it('the bank’s BIC / message type / BIC lines before each message (ABN AMRO); `942` there makes the entries pending', async () => {
    const header = ['ABNANL2A', '940', 'ABNANL2A'];
    const text = [
      ...header,
      ...statement('A', credit('A1')),
      ...header,
      ...statement('B', credit('B1')),
      'ABNANL2AXXX',
      '942',
      'ABNANL2A',
      ...statement('C', credit('C1'), ':34F:EURC0,00', ['-']),
      '',
    ].join('\r\n');
    const { items } = await read(text);
    expect(items).toEqual([
      { row: 8, amount: '1.00', currency: 'EUR', purpose: 'A1' },
      { row: 19, amount: '1.00', currency: 'EUR', purpose: 'B1' },
      { row: 30, amount: '1.00', currency: 'EUR', purpose: 'C1', pending: true },
    ]);
  });

  it('SOH before SWIFT blocks and ETX after the `-}` trailer, on the same lines', async () => {
    const text = [
      '\x01{1:F01BREXPLPWAXXX0000000000}{2:O9401200170119BREXPLPWAXXX00000000001701191200N}{4:',
      ...statement('A', credit('A1')).slice(0, -1),
      '-}{5:{CHK:0123456789AB}}\x03',
      '\x01{1:F01BREXPLPWAXXX0000000000}{2:O9421200170119BREXPLPWAXXX00000000001701191200N}{4:',
      ...statement('B', credit('B1'), ':34F:EURC0,00', []),
      '-}\x03',
    ].join('\r\n');
    expect((await read(text)).items).toEqual([
      { row: 6, amount: '1.00', currency: 'EUR', purpose: 'A1' },
      { row: 15, amount: '1.00', currency: 'EUR', purpose: 'B1', pending: true },
    ]);
  });

  it('real text outside any field stays one problem per run, also when it looks like part of a header', async () => {
    const body = statement('A', credit('A1'));
    const cases: [string[], string][] = [
      [['UMSAETZE'], 'line 1 is'],
      [['ABNANL2A', '940'], 'lines 1-2 are'],
      [['ABNANL2A', '940', 'ABNANL2A', 'Seite 1'], 'lines 1-4 are'],
      [['ABNANL2A', 'Seite 1', 'ABNANL2A'], 'lines 1-3 are'],
      [[':941:'], 'line 1 is'],
    ];
    for (const [lines, what] of cases) {
      const { items } = await read([...lines, ...body].join('\n'));
      expect(items).toEqual([
        {
          problem: 1,
          text: `${what} not part of an MT940 field: expected a field tag such as :20: or :61: at the start of a line`,
        },
        { row: lines.length + 5, amount: '1.00', currency: 'EUR', purpose: 'A1' },
      ]);
    }
  });
});

describe('an mt940 entry goes out with its own statement’s currency, or not at all', () => {
  it('waits for a closing balance when no balance stands before the entries (the second half of a statement split over two files)', async () => {
    const text = [
      ':61:2601050105C1,00NTRFNONREF//A1',
      ':86:166?20SVWZ+A1',
      ':61:2601XXC10,00NTRF',
      ':61:2601060106D2,50NTRFNONREF//A2',
      ':62F:C260131CHF98,50',
      '-',
      ...statement('B', credit('B1')),
    ].join('\r\n');
    for (const chunk of [text.length, 7]) {
      const { items, statements } = await read(text, chunk);
      expect(items).toEqual([
        { row: 1, amount: '1.00', currency: 'CHF', purpose: 'A1' },
        { problem: 3, text: expect.stringMatching(/^":61:2601XXC10,00NTRF" is not a statement line/) },
        { row: 4, amount: '-2.50', currency: 'CHF' },
        { row: 11, amount: '1.00', currency: 'EUR', purpose: 'B1' },
      ]);
      expect(statements.map((s) => [s.line, s.currency, s.closing?.amount])).toEqual([
        [1, 'CHF', '98.50'],
        [7, 'EUR', '101.00'],
      ]);
    }
  });

  it('takes an MT942 report’s currency from its :90D:/:90C: when it has no :34F:', async () => {
    const text = [':20:R', ':25:DE11222220220222220200', ...credit('P1'), ':90C:1USD1,00', '-'].join('\n');
    expect((await read(text)).items).toEqual([
      { row: 3, amount: '1.00', currency: 'USD', purpose: 'P1', pending: true },
    ]);
  });

  it('refuses each entry of a statement that names no currency at all, at its line; the next statement syncs', async () => {
    const text = [
      ...statement('A', [...credit('A1'), ...credit('A2')], '', ['-']),
      ...statement('B', credit('B1')),
    ].join('\n');
    const reason =
      'its statement names no currency: no balance (:60F:, :62F:, :64:) nor :34F: gives one (statement from line 1), and an entry is never sent in an assumed currency; the entry is not read';
    expect((await read(text)).items).toEqual([
      { problem: 4, text: reason },
      { problem: 6, text: reason },
      { row: 13, amount: '1.00', currency: 'EUR', purpose: 'B1' },
    ]);
  });

  /** Long entries (`:86:` of 60 lines: the text cap comes first) and bare `:61:` lines (the count cap). */
  const longEntry = `:61:2601050105C1,00NTRFNONREF\n:86:166?20SVWZ+${'x'.repeat(50)}\n${Array.from({ length: 59 }, () => 'y'.repeat(65)).join('\n')}`;
  const shortEntry = ':61:2601050105C1,00NTRFNONREF';
  it.each([
    [
      'MAX_HELD_CHARS',
      longEntry,
      Math.floor(MAX_HELD_CHARS / longEntry.replace(/:61:|:86:|\n/g, '').length) + 10,
    ],
    ['MAX_HELD_ENTRIES', shortEntry, MAX_HELD_ENTRIES + 10],
  ])(
    'holds at most %s waiting for a currency: past it the entries are refused, each at its line',
    async (_, entry, count) => {
      expect(count).toBeLessThan(MAX_HELD_ENTRIES + 11);
      expect(count * entry.length).toBeLessThan(MAX_HELD_CHARS * 1.1);
      const lines = entry.split('\n').length;
      const text = [
        ':20:A',
        ...Array.from({ length: count }, () => entry),
        ':62F:C260131CHF0,00',
        '-',
        ...statement('B', credit('B1')),
      ].join('\n');
      const { items } = await read(text, 64 * 1024);
      const problems = items.filter((i) => 'problem' in i);
      expect(problems).toHaveLength(count);
      expect(problems[0]).toEqual({
        problem: 2,
        text: 'its statement names no currency before more than 10,000 entries or 4 MiB of entry text (no opening balance :60F:) (statement from line 1), and an entry is never sent in an assumed currency; the entry is not read',
      });
      expect(problems.map((p) => ('problem' in p ? p.problem : 0))).toEqual(
        Array.from({ length: count }, (_, i) => 2 + lines * i),
      );
      expect(items.at(-1)).toEqual({
        row: lines * count + 8,
        amount: '1.00',
        currency: 'EUR',
        purpose: 'B1',
      });
    },
  );
});

describe('an mt940 file that ends in an entry is cut short: that entry is refused', () => {
  const reason =
    'the file ends in the entry of this :61:, before its statement’s closing balance (:62F:) or end (-): the file may be cut short here, so the entry may be incomplete; it is not read';

  it('refuses the entry the file ends in (inside its :86: or its :61:); the entries and statements before it go out', async () => {
    const head = [...statement('A', credit('A1')), ...statement('B', credit('B1'), undefined, [])];
    for (const end of [
      [':61:2601070107C5,00NTRFNONREF//B2', ':86:166?20SVWZ+Rechnung 4711 vom'],
      [':61:2601070107C5,0'],
    ]) {
      const { items, statements } = await read([...head, ...end].join('\r\n'));
      expect(items).toEqual([
        { row: 5, amount: '1.00', currency: 'EUR', purpose: 'A1' },
        { row: 13, amount: '1.00', currency: 'EUR', purpose: 'B1' },
        { problem: 15, text: reason },
      ]);
      // The cut statement is not checked against a closing balance it does not have.
      expect(statements[1]).toMatchObject({ id: 'B 1/1', entries: 1, unreadable: 1 });
      expect(statements[1]?.closing).toBeUndefined();
    }
  });

  it('refuses it also when its statement’s currency is still unknown, in file order', async () => {
    const text = [...credit('A1'), ':61:2601070107C5,00NTRFNONREF//A2', ':86:166?20SVWZ+Rech'].join('\n');
    const noCurrency =
      'its statement names no currency: no balance (:60F:, :62F:, :64:) nor :34F: gives one (statement from line 1), and an entry is never sent in an assumed currency; the entry is not read';
    expect((await read(text)).items).toEqual([
      { problem: 1, text: noCurrency },
      { problem: 3, text: reason },
    ]);
  });

  it('reads a statement whose file ends after its closing balance (no `-`), or an MT942 report after its :90C:', async () => {
    const booked = statement('A', credit('A1'), undefined, [':62F:C260131EUR101,00', ':64:C260131EUR101,00']);
    const interim = [
      ':20:R',
      ':25:DE11222220220222220200',
      ':34F:EURC0,00',
      ...credit('P1'),
      ':90C:1EUR1,00',
    ];
    for (const text of [booked.join('\n'), `${booked.join('\n')}\n\n`, interim.join('\r\n')]) {
      const { items } = await read(text);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ amount: '1.00', currency: 'EUR' });
    }
  });

  it('reads an amount and a :86: tag the bank broke over two lines, inside a whole statement', async () => {
    const text = statement('A', [
      ':61:1811261126CR',
      '30,00N062NONREF',
      ':',
      '86:166?00GUTSCHR. UEBERWEISUNG?20SVWZ+Test',
    ]);
    expect((await read(text.join('\n'))).items).toEqual([
      { row: 5, amount: '30.00', currency: 'EUR', purpose: 'Test' },
    ]);
  });
});
