import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { parseFeed } from '../../../src/config/load-feed.js';
import { readSource } from '../../../src/sources/formats/registry.js';
import { INTERIM_REPORT, readItems, readText, rows, source } from '../../support/mt940-items.js';
import { fixtureWriter, readOutcomes } from '../../support/source-files.js';

const write = fixtureWriter('mt940');

/**
 * A made-up day statement (CRLF): a NONREF pool transfer, then a credit with the bank's reference
 * after `//` and a structured :86:.
 */
const DAY_STATEMENT = [
  ':20:STARTUMSE',
  ':25:64459990/0004417082',
  ':28C:00031/001',
  ':60F:C260204EUR100,00',
  ':61:2602040204DR0,01NMSCNONREF',
  ':86:834?00KONTENPOOL?20UEBERTRAG AUF ZIELKONTO',
  ':61:2602040204CR0,01NMSCKREF+2602-17//202602040007693',
  ':86:166?00GUTSCHRIFT?20SVWZ+ABRECHNUNG NR. 28 ZU VERTRAG?2112, KUNDE 4471?30GENODEF1LDN',
  '?31DE19740699110000080412?32ANNA BEISPIEL',
  ':62F:C260204EUR100,00',
  '-',
  '',
].join('\r\n');

describe('the mt940 reader on made-up statements', () => {
  const statement = (entries: string) =>
    [
      ':20:REF',
      ':25:DE11222220220222220200',
      ':28C:1/1',
      ':60F:C260101EUR100,00',
      entries,
      ':62F:C260131EUR100,00',
      '-',
    ].join('\r\n');

  it('reads the other entries of a file around a :61: that does not parse', async () => {
    const items = await readText(
      statement(
        [
          ':61:2601050105C10,00NTRFNONREF//B1',
          ':86:166?00GUTSCHRIFT?20SVWZ+eins',
          ':61:2601XXC10,00NTRF',
          ':86:166?20SVWZ+kaputt',
          ':61:2601070107RC5,5NTRFNONREF//B3',
        ].join('\r\n'),
      ),
    );
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'row',
        line: 5,
        cells: expect.objectContaining({ bankReference: 'B1' }),
      }),
      {
        kind: 'problem',
        line: 7,
        problem: expect.stringMatching(
          /^":61:2601XXC10,00NTRF" is not a statement line: expected value date YYMMDD/,
        ),
      },
      expect.objectContaining({
        kind: 'row',
        line: 9,
        cells: expect.objectContaining({ amount: '-5.5', mark: 'RC', bankReference: 'B3' }),
      }),
    ]);
  });

  it('keeps a question mark of the purpose text as text: only ?nn starts a subfield', async () => {
    const [entry] = rows(
      await readText(
        statement(
          ':61:2601050105C1,00NTRFNONREF\r\n:86:166?00GUTSCHRIFT?20SVWZ+Wer? Wie? Was?\r\n?21 ?32Max',
        ),
      ),
    );
    expect(entry?.cells).toMatchObject({ purpose: 'Wer? Wie? Was?', counterpartyName: 'Max' });
  });

  it('dates an entry booked in the next or previous year from its value date', async () => {
    const entries = rows(
      await readText(statement(':61:2512310102D1,00NTRFNONREF\r\n:61:2601021231D2,00NTRFNONREF')),
    );
    expect(entries.map((e) => [e.cells.valueDate, e.cells.bookingDate])).toEqual([
      ['2025-12-31', '2026-01-02'],
      ['2026-01-02', '2025-12-31'],
    ]);
  });

  it('reports text outside any field once per run of lines, with the lines it covers', async () => {
    const items = await readText(`Kontoauszug\r\nSeite 1\r\n${statement(':61:2601050105C1,00NTRFNONREF')}`);
    expect(items[0]).toEqual({
      kind: 'problem',
      line: 1,
      problem:
        'lines 1-2 are not part of an MT940 field: expected a field tag such as :20: or :61: at the start of a line',
    });
    expect(items[1]).toMatchObject({ kind: 'row', line: 7 });
  });

  it('reads the same rows whatever the chunks of text (a CRLF split between two chunks, CR-only line ends)', async () => {
    const text = statement(
      ':61:2601050105C1,00NTRFNONREF//A\r\n:86:166?20SVWZ+eins zwei\r\n drei?32Max\r\n:61:2601060106D2,00NTRF',
    );
    const whole = await readText(text);
    const pieces = await readItems(Readable.from(text.match(/[\s\S]{1,7}/g) ?? []));
    expect(pieces).toEqual(whole);
    expect(rows(whole).map((r) => [r.line, r.cells.purpose])).toEqual([
      [5, 'eins zwei drei'],
      [8, undefined],
    ]);
    expect(await readText(text.replace(/\r\n/g, '\r'))).toEqual(whole);
  });

  it('reports a line too long to be MT940 once and reads on at the next line', async () => {
    const long = 'x'.repeat(100_000);
    const text = statement(`:61:2601050105C1,00NTRFNONREF//A\r\n${long}\r\n:61:2601060106C2,00NTRFNONREF//B`);
    const items = await readItems(Readable.from(text.match(/[\s\S]{1,4096}/g) ?? []));
    expect(items.map((i) => [i.kind, i.line])).toEqual([
      ['row', 5],
      ['problem', 6],
      ['row', 7],
    ]);
    expect(items[1]).toMatchObject({
      problem: expect.stringMatching(/^line 6 is longer than 65536 characters/),
    });
  });

  it('rejects an entry whose :86: runs on past any MT940 field, at the line of its :61:', async () => {
    const runOn = Array.from({ length: 2000 }, () => 'y'.repeat(60)).join('\r\n');
    const items = await readText(
      statement(`:61:2601050105C1,00NTRFNONREF//A\r\n:86:166?20${runOn}\r\n:61:2601060106C2,00NTRF`),
    );
    // Its lines after the limit belong to no field: one more problem for them, then the next entry.
    expect(items.map((i) => [i.kind, i.line])).toEqual([
      ['problem', 5],
      ['problem', 1099],
      ['row', 2006],
    ]);
    expect(items[0]).toMatchObject({
      problem:
        'field :86: (from line 6) goes on for more than 65536 characters: not MT940 text; the entry is not read',
    });
  });

  it('does not hold the file: rows come out while it is still being read', async () => {
    const entry = ':61:2601050105C1,00NTRFNONREF\r\n:86:166?20SVWZ+x\r\n';
    let handedOut = 0;
    async function* chunks() {
      yield ':20:REF\r\n:25:A\r\n:60F:C260101EUR0,00\r\n';
      for (let i = 0; i < 1000; i++) {
        handedOut++;
        yield entry;
      }
    }
    const reading = readSource('mt940', source(), 'big.sta', Readable.from(chunks()));
    for await (const batch of reading.batches) {
      expect(batch[0]?.kind).toBe('row');
      break;
    }
    expect(handedOut).toBeLessThan(50);
  });
});

describe('mt940 feeds', () => {
  const FEED = `
name: bank
accountId: 1001
kind: transactions
source: {path: '*.sta', format: mt940}
bankAccount: {externalId: giro, accountName: Giro, bankName: Bank}
`;

  it('need no mapping: the format brings one to transactions', () => {
    const { feed } = parseFeed(FEED, '/feeds/bank.yaml');
    expect(feed.mapping).toEqual({
      externalId: 'bankReference',
      bookingDate: 'bookingDate',
      valueDate: 'valueDate',
      amount: 'amount',
      currency: 'currency',
      purpose: 'purpose',
      counterpartyName: 'counterpartyName',
      counterpartyIban: 'counterpartyIban',
    });
    expect(feed.source).toEqual({
      format: 'mt940',
      path: '*.sta',
      encoding: 'auto',
      decimalSeparator: '.',
      dateFormat: 'yyyy-MM-dd',
      includePending: false,
    });
  });

  it('map field by field over the default: a mapped field replaces it, {const: null} empties it', () => {
    const { feed } = parseFeed(
      `${FEED}mapping:\n  purpose: purposeText\n  externalId: {const: null}\n  categoryId: {const: 7}\n`,
      '/feeds/bank.yaml',
    );
    expect(feed.mapping).toMatchObject({
      purpose: 'purposeText',
      externalId: { const: null },
      categoryId: { const: 7 },
      amount: 'amount',
    });
  });

  it('check the merged mapping as any mapping: unknown fields refused, a format without default still needs one', () => {
    const problems = (text: string) => {
      try {
        parseFeed(text, '/feeds/bank.yaml');
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
      }
      return '';
    };
    expect(problems(`${FEED}mapping:\n  purpos: purpose\n`)).toMatch(
      /mapping\.purpos: unknown field for kind transactions/,
    );
    // As for csv, a required field is checked for presence: {const: null} passes the load, and
    // each record is then rejected for the missing amount.
    expect(problems(`${FEED}mapping:\n  amount: {const: null}\n`)).toBe('');
    expect(problems(FEED.replace('kind: transactions', 'kind: invoices'))).toMatch(
      /mapping: Invalid input: expected record/,
    );
    expect(problems(FEED.replace('format: mt940', 'format: mt940, decimalSeparator: ","'))).toMatch(
      /source\.decimalSeparator/,
    );
  });

  it('sync booked entries: the bank reference is the externalId where there is one, else a derived one', async () => {
    const { feed } = parseFeed(FEED, '/feeds/bank.yaml');
    const outcomes = await readOutcomes(feed, write(DAY_STATEMENT, 'sta'));
    expect(outcomes).toEqual([
      {
        kind: 'mapped',
        record: expect.objectContaining({
          line: 5,
          derivedId: true,
          externalId: expect.stringMatching(/^erpb2-/),
          amount: '-0.01',
          payload: expect.objectContaining({ bookingDate: '2026-02-04', amount: -0.01, currency: 'EUR' }),
        }),
      },
      {
        kind: 'mapped',
        record: expect.objectContaining({
          line: 7,
          derivedId: false,
          externalId: '202602040007693',
          payload: {
            externalId: '202602040007693',
            bookingDate: '2026-02-04',
            valueDate: '2026-02-04',
            amount: 0.01,
            currency: 'EUR',
            purpose: 'ABRECHNUNG NR. 28 ZU VERTRAG12, KUNDE 4471',
            counterpartyName: 'ANNA BEISPIEL',
            counterpartyIban: 'DE19740699110000080412',
          },
        }),
      },
    ]);
  });

  it('leave pending entries out as excluded with their amount, and reject an unreadable entry', async () => {
    const { feed } = parseFeed(FEED, '/feeds/bank.yaml');
    expect(await readOutcomes(feed, write(INTERIM_REPORT.join('\n'), 'sta'))).toEqual([
      {
        kind: 'excluded',
        record: expect.objectContaining({
          line: 6,
          amount: '-0.42',
          reason: expect.stringMatching(/^pending: /),
        }),
      },
    ]);
    // Value date 30 February: no date, so no record.
    const february30 = DAY_STATEMENT.replace(
      ':61:2602040204DR0,01NMSCNONREF',
      ':61:2602300301DR6,00NMSCNONREF',
    );
    const outcomes = await readOutcomes(feed, write(february30, 'sta'));
    expect(outcomes[0]).toEqual({
      kind: 'rejected',
      record: expect.objectContaining({
        line: 5,
        code: 'UNREADABLE_ROW',
        message: expect.stringContaining('260230'),
      }),
    });
    expect(outcomes.slice(1).map((o) => o.kind)).toEqual(['mapped']);
  });

  it('stop a file whose override names a cell the format does not have', async () => {
    const { feed } = parseFeed(`${FEED}mapping:\n  purpose: verwendungszweck\n`, '/feeds/bank.yaml');
    const file = write(DAY_STATEMENT, 'sta');
    const outcomes = await readOutcomes(feed, file);
    expect(outcomes.every((o) => o.kind === 'rejected')).toBe(true);
    expect(outcomes[0]).toMatchObject({ record: { message: expect.stringMatching(/verwendungszweck/) } });
  });
});
