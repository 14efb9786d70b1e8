import { describe, expect, it } from 'vitest';
import { Feed, type FeedInput } from '../../../src/config/feed.js';
import { openRecords, recordsOf } from '../../../src/sources/open-records.js';
import type { MapOutcome } from '../../../src/sources/record.js';
import { fixtureWriter } from '../../support/source-files.js';

/**
 * Shape errors name the column (issue 11, point 5) and source IDs are never cleaned into a
 * collision (issue 18, point 3), read end to end through openRecords.
 */

const write = fixtureWriter('shape');

function feed(
  mapping: FeedInput['mapping'] = {
    externalId: 'ID',
    bookingDate: 'Datum',
    amount: 'Betrag',
    purpose: 'Text',
  },
) {
  return Feed.parse({
    name: 'shape',
    accountId: 1001,
    kind: 'transactions',
    source: { path: 'x', format: 'csv', delimiter: ';', decimalSeparator: ',', dateFormat: 'dd.MM.yyyy' },
    bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
    mapping,
  });
}

async function read(f: Feed, text: string) {
  const stream = openRecords(f, write(text));
  const outcomes: MapOutcome[] = [];
  for await (const outcome of recordsOf(stream)) outcomes.push(outcome);
  return { outcomes, layout: stream.layoutProblem?.() };
}

const message = (o: MapOutcome | undefined) => (o?.kind === 'rejected' ? o.record.message : o?.kind);

describe('a mapped column missing from the header', () => {
  it('is a layout problem of the file naming the mapping, the column and the header', async () => {
    const { outcomes, layout } = await read(feed(), 'ID;Datum;Wert;Text\nA1;05.02.2026;1,00;x\n');
    expect(layout).toBe(
      `the feed's mapping does not fit this file: mapping.amount: column "Betrag" is not in the header; the header has: ID, Datum, Wert, Text`,
    );
    // Every row is still accounted for.
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ kind: 'rejected', record: { line: 2 } });
  });

  it('is no layout problem when the header fits', async () => {
    const { layout } = await read(feed(), 'ID;Datum;Betrag;Text\nA1;05.02.2026;1,00;x\n');
    expect(layout).toBeUndefined();
  });
});

describe('rows that do not fit the header', () => {
  const HEADER = 'ID;Datum;Betrag;Waehrung;Text';
  const f = feed({
    externalId: 'ID',
    bookingDate: 'Datum',
    amount: 'Betrag',
    currency: 'Waehrung',
    purpose: 'Text',
  });

  it('rejects a short row naming the count and the missing columns', async () => {
    const { outcomes } = await read(f, `${HEADER}\nA1;05.02.2026;1,00\n`);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ kind: 'rejected', record: { line: 2 } });
    expect(message(outcomes[0])).toBe('row has 3 fields, the header has 5: missing "Waehrung", "Text"');
  });

  it('rejects a long row naming the extra field instead of creating it', async () => {
    const { outcomes } = await read(
      f,
      `${HEADER}\nA1;05.02.2026;1,00;EUR;x;xyz\nA2;05.02.2026;2,00;EUR;y;\n`,
    );
    expect(message(outcomes[0])).toBe('row has 6 fields, the header has 5: extra field 6 "xyz"');
    // A trailing delimiter (an empty extra field) is common in bank exports: tolerated.
    expect(outcomes[1]?.kind).toBe('mapped');
  });

  it('names the field and column of an empty required cell', async () => {
    const { outcomes } = await read(f, `${HEADER}\nA1;05.02.2026;;EUR;x\n`);
    expect(message(outcomes[0])).toBe('amount (column "Betrag"): required, but the cell is empty');
  });
});

describe('source IDs are taken as they are', () => {
  it.each([
    ['K-1 ', 'has leading or trailing whitespace', '"K-1 "'],
    [' K-1', 'has leading or trailing whitespace', '" K-1"'],
    ['K-\u00011', 'contains a control character', '"K-\\u00011"'],
    ['K-1\u0085', 'contains a control character', '"K-1\\u0085"'],
  ])('rejects %j naming the column and showing the value escaped', async (id, problem, shown) => {
    const { outcomes } = await read(
      feed(),
      `ID;Datum;Betrag;Text\n"${id}";05.02.2026;1,00;x\nK-1;05.02.2026;2,00;y\n`,
    );
    expect(message(outcomes[0])).toBe(`externalId (column "ID"): ${shown} ${problem}`);
    expect(outcomes[1]).toMatchObject({ kind: 'mapped', record: { externalId: 'K-1' } });
  });
});
