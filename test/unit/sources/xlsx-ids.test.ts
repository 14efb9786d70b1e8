import { describe, expect, it } from 'vitest';
import { Feed } from '../../../src/config/feed.js';
import type { MapOutcome } from '../../../src/sources/record.js';
import { fixtureWriter, readOutcomes } from '../../support/source-files.js';
import { rowOf, xlsxOf } from '../../support/xlsx-files.js';

/**
 * An ID in a number cell (a workbook whose ID column was typed as numbers): sent digit for digit
 * while the cell still holds it, refused naming the cell when Excel has already lost digits.
 * Money in a number cell stays read as Excel shows it (15 significant digits).
 */
const write = fixtureWriter('xlsx-ids');

const feed = Feed.parse({
  name: 'xlsx-ids',
  accountId: 1001,
  kind: 'transactions',
  source: { path: 'x', format: 'xlsx', dateFormat: 'yyyy-MM-dd' },
  bankAccount: { externalId: 'main', accountName: 'Main', bankName: 'Bank' },
  mapping: { externalId: 'ID', bookingDate: 'Date', amount: 'Amount', purpose: 'Ref' },
});

/** A mapped record's service field, or the outcome's kind. */
const fieldOf = (o: MapOutcome, field: string) =>
  o.kind === 'mapped' ? (o.record.payload as Record<string, unknown>)[field] : o.kind;

async function read(ids: string[], amount = '1.5') {
  const rows = ids.map((id, i) => rowOf(i + 2, ['2026-01-05', { n: amount }, { n: id }, 'x']));
  const book = xlsxOf({
    sheets: [{ name: 'Bookings', rows: rowOf(1, ['Date', 'Amount', 'ID', 'Ref']) + rows.join('') }],
  });
  return readOutcomes(feed, write(book, 'xlsx'));
}

describe('a number cell mapped to a text field (an ID)', () => {
  it('an integer the cell holds exactly is sent as its integer text: no exponent, no ".0"', async () => {
    const outcomes = await read(['4711', '5.0', '1.23E+5', '123456789012345', '1000000000000000']);
    expect(outcomes.map((o) => fieldOf(o, 'externalId'))).toEqual([
      '4711',
      '5',
      '123000',
      '123456789012345',
      '1000000000000000',
    ]);
  });

  it('more than 15 significant digits (Excel already rounded it) or beyond 2^53 - 1: refused naming sheet, cell and field', async () => {
    const outcomes = await read(['1234567890123456789', '1.23E+21', '4711']);
    expect(outcomes.map((o) => o.kind)).toEqual(['rejected', 'rejected', 'mapped']);
    const [digits, range] = outcomes.map((o) => (o.kind === 'rejected' ? o.record.message : ''));
    expect(digits).toBe(
      'row 2: cell C2 of sheet "Bookings" ("ID", mapping.externalId) holds the number 1234567890123456789 of 19 significant digits: Excel keeps 15 (it shows 1234567890123460000), so the value\'s own digits are lost; store the ID as text in the workbook (a text cell, or the column formatted as Text before the IDs are entered)',
    );
    expect(range).toContain(
      'row 3: cell C3 of sheet "Bookings" ("ID", mapping.externalId) holds the number 1.23E+21',
    );
    expect(range).toContain('beyond 9007199254740991 (2^53 - 1)');
    expect(range).toContain('store the ID as text in the workbook');
  });

  it('a money cell is still read as Excel shows it (15 significant digits)', async () => {
    const [outcome] = await read(['4711'], '0.30000000000000004');
    expect(outcome && fieldOf(outcome, 'amount')).toBe(0.3);
  });
});
