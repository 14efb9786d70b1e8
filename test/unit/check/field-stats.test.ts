import { describe, expect, it } from 'vitest';
import { FieldStats } from '../../../src/check/field-stats.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';

const rejected = (line: number, fields: Partial<RecordOutcome>): RecordOutcome => ({
  file: 'bank.csv',
  line,
  outcome: 'rejected',
  code: 'INVALID_RECORD',
  ...fields,
  message: fields.problems?.map((p) => p.message).join('; ') ?? fields.message,
});

describe('FieldStats', () => {
  it("counts a rejected row for the fields its problems name, whatever their messages' wording", () => {
    const stats = new FieldStats(['bookingDate', 'valueDate', 'amount'], 3);
    stats.outcome(
      rejected(2, {
        problems: [
          {
            field: 'bookingDate',
            message: 'bookingDate (column "Datum"): "1.2." is not a date as dd.MM.yyyy',
          },
          // A field read from several columns: its message does not begin with the field.
          { field: 'valueDate', message: '"31.02.2026" is not a calendar date' },
        ],
      }),
    );
    // Two problems of one field: one row rejected for it, both said.
    stats.outcome(
      rejected(3, {
        problems: [
          { field: 'amount', message: 'amount: too small' },
          { field: 'amount', message: 'amount: not a multiple' },
        ],
      }),
    );
    expect(stats.fields()).toEqual([
      {
        field: 'bookingDate',
        values: 0,
        empty: 0,
        rejected: 1,
        examples: [
          {
            file: 'bank.csv',
            line: 2,
            reason: 'bookingDate (column "Datum"): "1.2." is not a date as dd.MM.yyyy',
          },
        ],
      },
      {
        field: 'valueDate',
        values: 0,
        empty: 0,
        rejected: 1,
        examples: [{ file: 'bank.csv', line: 2, reason: '"31.02.2026" is not a calendar date' }],
      },
      {
        field: 'amount',
        values: 0,
        empty: 0,
        rejected: 1,
        examples: [{ file: 'bank.csv', line: 3, reason: 'amount: too small; amount: not a multiple' }],
      },
    ]);
    expect(stats.other()).toEqual([]);
  });

  it('counts a row whose problems name no mapped field, or that has none, by its code', () => {
    const stats = new FieldStats(['amount'], 3);
    const account = 'statement account "DE00" is not in the feed\'s bankAccounts';
    stats.outcome(rejected(2, { code: 'UNKNOWN_ACCOUNT', problems: [{ message: account }] }));
    // A field not mapped (a contract issue of an implicit one would name none): the row's.
    stats.outcome(rejected(3, { problems: [{ field: 'currency', message: 'currency: invalid' }] }));
    stats.outcome(
      rejected(4, { code: 'DUPLICATE_IN_SOURCE', message: 'amount: looks like a field, is not' }),
    );
    // A problem of the whole row beside a field's: the row counts for the field only.
    stats.outcome(
      rejected(5, { problems: [{ message: 'record: whole' }, { field: 'amount', message: 'amount: bad' }] }),
    );
    expect(stats.fields()[0]).toMatchObject({
      rejected: 1,
      examples: [{ line: 5, reason: 'amount: bad' }],
    });
    expect(stats.other()).toEqual([
      {
        code: 'UNKNOWN_ACCOUNT',
        outcome: 'rejected',
        count: 1,
        examples: [{ file: 'bank.csv', line: 2, reason: account }],
      },
      {
        code: 'INVALID_RECORD',
        outcome: 'rejected',
        count: 1,
        examples: [{ file: 'bank.csv', line: 3, reason: 'currency: invalid' }],
      },
      {
        code: 'DUPLICATE_IN_SOURCE',
        outcome: 'rejected',
        count: 1,
        examples: [{ file: 'bank.csv', line: 4, reason: 'amount: looks like a field, is not' }],
      },
    ]);
  });
});
