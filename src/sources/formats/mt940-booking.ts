import type { Booking, StatementAppearance } from '../booking.js';
import { accountKey } from '../statement-account.js';
import type { EntryLine } from './mt940-entry-line.js';

/** The fields of a statement that name it: `:20:`, `:25:`, `:28C:`, and where it starts. */
interface NamedStatement {
  line: number;
  reference?: string;
  account?: string;
  number?: string;
}

/**
 * A statement's account as compared and its appearance (docs/identity.md): what the rows of one
 * statement share, worked out at its first entry and again only if a field that names it changed.
 */
export interface StatementPlace {
  readonly reference: string | undefined;
  readonly account: string | undefined;
  readonly number: string | undefined;
  readonly accountKey: string;
  readonly appearance: StatementAppearance | undefined;
}

export function placeOf(statement: NamedStatement, known: StatementPlace | undefined): StatementPlace {
  const { reference, account, number } = statement;
  if (known && known.reference === reference && known.account === account && known.number === number)
    return known;
  const key = account === undefined ? '' : accountKey(account);
  return {
    reference,
    account,
    number,
    accountKey: key,
    // `:20:` and `:28C:` are mandatory: a statement without both has no name to be repeated under.
    appearance:
      reference && number
        ? { key: `${key}\u0000${reference}\u0000${number}`, line: statement.line }
        : undefined,
  };
}

/** The booking an entry with a bank reference is; MT940 gives a booking one shape, so no others. */
export function bookingOf(place: StatementPlace, entryLine: number, line: EntryLine): Booking | undefined {
  const reference = line.bankReference;
  if (!reference) return undefined;
  return {
    reference,
    account: place.accountKey,
    amount: line.amount,
    date: line.bookingDate,
    line: entryLine,
    others: [],
  };
}
