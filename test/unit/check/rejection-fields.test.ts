import { describe, expect, it } from 'vitest';
import { blamedFields } from '../../../src/check/rejection-fields.js';

describe('blamedFields', () => {
  const fields = ['amount', 'bookingDate', 'purpose'];

  it('gives each part of a rejection to the field it begins with', () => {
    expect(
      blamedFields(
        'bookingDate (column "Datum"): "x" is not a date; amount: both column "S" and column "H" are empty',
        fields,
      ),
    ).toEqual([
      { field: 'bookingDate', reason: 'bookingDate (column "Datum"): "x" is not a date' },
      { field: 'amount', reason: 'amount: both column "S" and column "H" are empty' },
    ]);
  });

  it('a part naming no field belongs to the one before, or to the row', () => {
    expect(blamedFields('purpose: too long; see the limit', fields)).toEqual([
      { field: 'purpose', reason: 'purpose: too long; see the limit' },
    ]);
    expect(blamedFields('record: unknown shape', fields)).toEqual([
      { field: undefined, reason: 'record: unknown shape' },
    ]);
    // A field whose name begins another's is not mistaken for it.
    expect(blamedFields('amountX: nope', fields)).toEqual([{ field: undefined, reason: 'amountX: nope' }]);
  });
});
