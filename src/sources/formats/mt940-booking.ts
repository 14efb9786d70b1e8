import type { RowBooking, StatementAppearance } from '../booking.js';
import { accountKey } from '../statement-account.js';
import type { EntryLine } from './mt940-entry-line.js';

/** What an MT940 entry's row says about its booking and its statement (docs/identity.md). */
export function entryPlace(
  statement: { line: number; reference?: string; account?: string; number?: string },
  entryLine: number,
  line: EntryLine,
): { booking?: RowBooking; statement?: StatementAppearance } {
  const account = statement.account === undefined ? '' : accountKey(statement.account);
  const place: { booking?: RowBooking; statement?: StatementAppearance } = {};
  // `:20:` and `:28C:` are mandatory: a statement without both has no name to be repeated under.
  if (statement.reference && statement.number)
    place.statement = {
      key: `${account}\u0000${statement.reference}\u0000${statement.number}`,
      line: statement.line,
    };
  const reference = line.bankReference;
  if (reference)
    place.booking = {
      reference,
      account,
      amount: line.amount,
      date: line.bookingDate,
      line: entryLine,
      id: reference,
      others: [],
    };
  return place;
}
