import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../../src/config/load-feed.js';
import { openText } from '../../../src/sources/decode.js';
import { SourceLayoutError } from '../../../src/sources/field-plan.js';
import { readCsv } from '../../../src/sources/formats/csv-reader.js';
import { compileMapper } from '../../../src/sources/mapper.js';
import type { MapOutcome } from '../../../src/sources/record.js';
import { fixtureWriter } from '../../support/source-files.js';

const write = fixtureWriter('map');

async function mapAll(feedYaml: string, csv: string): Promise<MapOutcome[]> {
  const path = write(csv);
  const { feed } = parseFeed(feedYaml, '/feeds/feed.yaml');
  if (feed.source.format !== 'csv') throw new Error('expected a csv feed');
  const { items, columns } = readCsv(path, openText(path, feed.source.encoding).text, feed.source);
  const out: MapOutcome[] = [];
  let mapper: ReturnType<typeof compileMapper> | undefined;
  for await (const item of items) {
    if (item.kind !== 'row') continue;
    mapper ??= compileMapper(feed, await columns);
    out.push(mapper(item.row));
  }
  return out;
}

const txFeed = (mapping: string, extra = '') => `
name: t
accountId: 1001
kind: transactions
source: {path: x.csv, format: csv, delimiter: ";", decimalSeparator: ",", dateFormat: dd.MM.yyyy}
bankAccount: {externalId: main, accountName: Main, bankName: Bank}
mapping:
${mapping}
${extra}`;

describe('compileMapper', () => {
  it("rejects an amount finer than its currency (the record's own, else the bank account's), naming field and column, never rounded", async () => {
    const outcomes = await mapAll(
      txFeed('  externalId: ID\n  bookingDate: Datum\n  amount: Betrag\n  currency: Währung', ''),
      [
        'ID;Datum;Betrag;Währung',
        'A;5.2.2026;0,0015;EUR',
        'B;5.2.2026;1,5;JPY',
        'C;5.2.2026;1,234;KWD',
        'D;5.2.2026;1,2345;KWD',
        'E;5.2.2026;0,123456;XAU',
        'F;5.2.2026;-12,30;',
        'G;5.2.2026;-12,305;',
      ].join('\n'),
    );
    const said = outcomes.map((o) => (o.kind === 'rejected' ? o.record.message : o.kind));
    expect(said).toEqual([
      'amount (column "Betrag"): 0.0015 has 4 fraction digits, more than EUR has (2); it is not rounded',
      'amount (column "Betrag"): 1.5 has 1 fraction digits, more than JPY has (0); it is not rounded',
      'mapped',
      'amount (column "Betrag"): 1.2345 has 4 fraction digits, more than KWD has (3); it is not rounded',
      // Gold has no minor unit: no limit.
      'mapped',
      // No currency in the row: the bank account's (EUR by default).
      'mapped',
      'amount (column "Betrag"): -12.305 has 3 fraction digits, more than EUR has (2); it is not rounded',
    ]);
  });

  it('maps a German row to a validated transaction with exact amount text', async () => {
    const [out] = await mapAll(
      txFeed('  externalId: ID\n  bookingDate: Datum\n  amount: Betrag\n  purpose: Text'),
      'ID;Datum;Betrag;Text\nA1;5.2.2026;-1.234,56;  Miete Februar \n',
    );
    expect(out).toEqual({
      kind: 'mapped',
      record: {
        file: expect.stringMatching(/\.csv$/),
        line: 2,
        externalId: 'A1',
        derivedId: false,
        payload: { externalId: 'A1', bookingDate: '2026-02-05', amount: -1234.56, purpose: 'Miete Februar' },
        amount: '-1234.56',
      },
    });
  });

  it('rejects a bad row naming field, column and reason, and keeps going', async () => {
    const out = await mapAll(
      txFeed('  externalId: ID\n  bookingDate: Datum\n  amount: Betrag'),
      'ID;Datum;Betrag\nA1;31.02.2026;1,00\nA2;01.02.2026;abc\nA3;01.02.2026;2,00\n',
    );
    expect(out.map((o) => o.kind)).toEqual(['rejected', 'rejected', 'mapped']);
    expect(out[0]?.record).toMatchObject({
      line: 2,
      externalId: 'A1',
      code: 'INVALID_RECORD',
      message: expect.stringMatching(/^bookingDate \(column "Datum"\): "31.02.2026" is not a calendar date/),
    });
    expect(out[1]?.record).toMatchObject({
      line: 3,
      message: expect.stringMatching(/^amount \(column "Betrag"\): "abc" is not an amount/),
    });
  });

  it('derives stable IDs with occurrence numbers for identical rows (two real payments)', async () => {
    const csv =
      'Datum;Betrag;Text\n01.02.2026;-5,00;Kaffee\n01.02.2026;-5,00;Kaffee\n02.02.2026;-5,00;Kaffee\n';
    const first = await mapAll(txFeed('  bookingDate: Datum\n  amount: Betrag\n  purpose: Text'), csv);
    const again = await mapAll(txFeed('  bookingDate: Datum\n  amount: Betrag\n  purpose: Text'), csv);
    const ids = first.map((o) => (o.kind === 'mapped' ? o.record.externalId : ''));
    expect(ids[0]).toMatch(/^erpb2-[\w-]{22}-1$/);
    expect(ids[1]).toBe(ids[0]?.replace(/-1$/, '-2'));
    expect(ids[2]).toMatch(/-1$/);
    expect(new Set(ids).size).toBe(3);
    expect(again.map((o) => (o.kind === 'mapped' ? o.record.externalId : ''))).toEqual(ids);
  });

  it('identityScheme 1 derives the IDs of before scheme 2, byte for byte; a category is outside scheme 2', async () => {
    const csv = 'Datum;Betrag;Text;Kat\n01.02.2026;-5,00;Kaffee;7\n';
    const mapping = '  bookingDate: Datum\n  amount: Betrag\n  purpose: Text\n  categoryId: Kat';
    const [v1] = await mapAll(txFeed(mapping, 'identityScheme: 1'), csv);
    if (v1?.kind !== 'mapped') throw new Error('not mapped');
    const { externalId: _, ...payload } = v1.record.payload as unknown as Record<string, unknown>;
    const hash = createHash('sha256')
      .update(`transactions\u0000${JSON.stringify(payload)}`)
      .digest('base64url');
    expect(v1.record.externalId).toBe(`erpb-${hash.slice(0, 22)}-1`);
    const [withCategory] = await mapAll(txFeed(mapping), csv);
    const [without] = await mapAll(txFeed('  bookingDate: Datum\n  amount: Betrag\n  purpose: Text'), csv);
    expect(withCategory?.kind === 'mapped' && withCategory.record.externalId).toBe(
      without?.kind === 'mapped' && without.record.externalId,
    );
  });

  it('combines debit/credit columns and sign columns exactly', async () => {
    const dc = await mapAll(
      txFeed('  bookingDate: Datum\n  amount: {debit: Soll, credit: Haben}'),
      'Datum;Soll;Haben\n01.02.2026;10,10;\n01.02.2026;;0,20\n01.02.2026;;\n',
    );
    expect(dc.map((o) => o.record)).toMatchObject([
      { amount: '-10.1' },
      { amount: '0.2' },
      { message: expect.stringMatching(/both column "Soll" and column "Haben" are empty/) },
    ]);
    const sh = await mapAll(
      txFeed('  bookingDate: Datum\n  amount: {column: Umsatz, sign: {column: SH}}'),
      'Datum;Umsatz;SH\n01.02.2026;12,00;S\n01.02.2026;3,00;H\n01.02.2026;3,00;?\n',
    );
    expect(sh.map((o) => o.record)).toMatchObject([
      { amount: '-12' },
      { amount: '3' },
      { message: expect.stringMatching(/sign "\?" is neither/) },
    ]);
  });

  it('applies value maps, defaults, constants and exclude rules', async () => {
    const out = await mapAll(
      txFeed(
        '  bookingDate: Datum\n  amount: Betrag\n  currency: {const: EUR}\n  valueDate: {column: Valuta, default: "01.01.2026"}\n  purpose: {column: Art, map: {LS: Lastschrift}}',
        'exclude:\n  - {column: Info, equals: Umsatz vorgemerkt}',
      ),
      'Datum;Betrag;Valuta;Art;Info\n01.02.2026;1,00;;LS;Umsatz gebucht\n01.02.2026;1,00;;LS;Umsatz vorgemerkt\n',
    );
    expect(out[0]).toMatchObject({
      kind: 'mapped',
      record: { payload: { currency: 'EUR', valueDate: '2026-01-01', purpose: 'Lastschrift' } },
    });
    expect(out[1]).toMatchObject({
      kind: 'excluded',
      record: { line: 3, reason: expect.stringMatching(/exclude rule #1/) },
    });
  });

  it("leaves out a row its format marks (leftOut) as excluded with the format's reason and its amount", () => {
    const { feed } = parseFeed(txFeed('  bookingDate: Datum\n  amount: Betrag'), '/feeds/feed.yaml');
    const mapper = compileMapper(feed, undefined);
    const cells: Record<string, string> = { Datum: '01.02.2026', Betrag: '-7,50' };
    const row = { file: 'f', line: 4, cell: (ref: string | number) => cells[String(ref)], text: () => '' };
    expect(mapper({ ...row, leftOut: 'pending (interim report): not booked yet' })).toEqual({
      kind: 'excluded',
      record: { file: 'f', line: 4, reason: 'pending (interim report): not booked yet', amount: '-7.5' },
    });
    expect(mapper(row).kind).toBe('mapped');
  });

  it('stops a file whose header lacks a mapped column, or maps a duplicated name', async () => {
    await expect(
      mapAll(txFeed('  bookingDate: Datum\n  amount: Betrag'), 'Datum;Wert\n01.02.2026;1\n'),
    ).rejects.toThrow(SourceLayoutError);
    await expect(
      mapAll(txFeed('  bookingDate: Datum\n  amount: Betrag'), 'Datum;Betrag;Betrag\n01.02.2026;1;2\n'),
    ).rejects.toThrow(/appears more than once \(positions 2, 3\); address it by position/);
  });

  it('stops a file whose header lacks the column of an exclude rule, instead of excluding nothing', async () => {
    await expect(
      mapAll(
        txFeed(
          '  bookingDate: Datum\n  amount: Betrag',
          'exclude:\n  - {column: Stauts, equals: vorgemerkt}',
        ),
        'Datum;Betrag;Status\n01.02.2026;1;vorgemerkt\n',
      ),
    ).rejects.toThrow(
      /exclude rule #1: column "Stauts" is not in the header; the header has: Datum, Betrag, Status/,
    );
  });
});

describe('compileMapper: the problems of a rejected row', () => {
  /** Each rejection's problems, and its message checked to be theirs joined by "; ". */
  const problemsOf = (outcomes: readonly MapOutcome[]) =>
    outcomes.map((o) => {
      if (o.kind !== 'rejected') return o.kind;
      const { message, problems } = o.record;
      expect(message).toBe(problems?.map((p) => p.message).join('; '));
      return problems;
    });

  it('names the mapped field of each: a bad amount or date, a required cell empty, a contract issue, too fine a fraction', async () => {
    const tooLong = 'X'.repeat(256);
    const out = await mapAll(
      txFeed('  externalId: ID\n  bookingDate: Datum\n  amount: Betrag\n  currency: Währung'),
      [
        'ID;Datum;Betrag;Währung',
        'A1;01.02.2026;abc;EUR',
        'A2;31.02.2026;1,00;EUR',
        'A3;01.02.2026;;EUR',
        `${tooLong};01.02.2026;1,00;EUR`,
        'A5;01.02.2026;0,001;EUR',
        'A6;1.2.;zwölf;EUR',
        'A7;01.02.2026;1,00;EUR',
      ].join('\n'),
    );
    expect(problemsOf(out)).toEqual([
      [
        {
          field: 'amount',
          message: expect.stringMatching(/^amount \(column "Betrag"\): "abc" is not an amount/),
        },
      ],
      [
        {
          field: 'bookingDate',
          message: expect.stringMatching(
            /^bookingDate \(column "Datum"\): "31.02.2026" is not a calendar date/,
          ),
        },
      ],
      [{ field: 'amount', message: 'amount (column "Betrag"): required, but the cell is empty' }],
      [{ field: 'externalId', message: expect.stringMatching(/^externalId: /) }],
      [
        {
          field: 'amount',
          message:
            'amount (column "Betrag"): 0.001 has 3 fraction digits, more than EUR has (2); it is not rounded',
        },
      ],
      [
        {
          field: 'bookingDate',
          message: expect.stringMatching(/^bookingDate \(column "Datum"\): "1\.2\." /),
        },
        { field: 'amount', message: expect.stringMatching(/^amount \(column "Betrag"\): "zwölf" /) },
      ],
      'mapped',
    ]);
    // The message as people and the report files read it, unchanged: the problems joined by "; ".
    const both = out[5]?.kind === 'rejected' ? out[5].record.message : '';
    expect(both).toMatch(
      /^bookingDate \(column "Datum"\): "1\.2\." .*; amount \(column "Betrag"\): "zwölf" /,
    );
  });

  it('names the field whatever its message begins with (a field read from several columns)', async () => {
    const out = await mapAll(
      txFeed('  bookingDate: {columns: [Tag, Monat], separator: "."}\n  amount: Betrag'),
      'Tag;Monat;Betrag\n31;02.2026;1,00\n',
    );
    expect(problemsOf(out)).toEqual([
      [{ field: 'bookingDate', message: expect.not.stringMatching(/^bookingDate/) }],
    ]);
  });

  it('gives a contract issue of a mapped field to it, and a problem of the whole row (its account) to no field', async () => {
    const { feed } = parseFeed(
      'name: c\nkind: categories\nsource: {path: c.csv, format: csv, delimiter: ";"}\nmapping: {accountExternalId: tenant, path: path, type: type}',
      '/feeds/feed.yaml',
    );
    const mapper = compileMapper(feed, undefined);
    const row = (cells: Record<string, string>) => ({
      file: 'c.csv',
      line: 2,
      cell: (ref: string | number) => cells[String(ref)],
      text: () => '',
    });
    const out = [
      mapper(row({ tenant: 'nordwind', path: 'Office', type: 'NOPE' })),
      mapper(row({ tenant: '', path: 'Office', type: 'EXPENSE_OPERATIONAL' })),
    ];
    expect(problemsOf(out)).toEqual([
      [{ field: 'type', message: expect.stringMatching(/^type: /) }],
      [
        {
          message:
            "the record names no customer account (accountExternalId is empty) and the feed has no accountId: fill in the account's externalId, or give the feed an accountId for such records",
        },
      ],
    ]);
    expect(out.map((o) => (o.kind === 'rejected' ? o.record.code : o.kind))).toEqual([
      'INVALID_RECORD',
      'UNKNOWN_ACCOUNT',
    ]);
  });
});
