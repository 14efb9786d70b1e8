/**
 * What a bank statement row says about the booking it is, or is a part of (docs/identity.md, "One
 * booking, once"): the bank's reference of the entry claims the booking for the statement's
 * account, in the run and in the service, whatever shape a file gives it (one entry, a batch, the
 * batch's details).
 */
export interface Booking {
  /** The bank's reference of the entry: camt `AcctSvcrRef`, MT940 the reference after `//`. */
  reference: string;
  /** The statement's account as compared (accountKey); '' when the statement names none. */
  account: string;
  /** The entry's signed amount (a batch's total) and booking date: what a repeat must say again. */
  amount: string;
  date: string;
  /** Line of the entry (`<Ntry>`, `:61:`): the rows of one entry share it, a repeat has its own. */
  line: number;
  /**
   * The externalIds of the booking's other shapes under the format's default mapping, whose
   * existence in the service means the booking is there (a plain entry's: the first part of a
   * split batch; a part's: the plain entry's). Empty where the record's externalId is not the
   * bank's reference (a feed that maps its own), or the format has no other shapes.
   */
  others: string[];
  /**
   * A part's: the amounts of all the parts of its batch in this file, in order (signed decimal
   * text, separated by spaces), so that a part the service lacks compares the parts it holds of the
   * booking with this split (docs/identity.md). One text shared by the parts of an entry, not a list:
   * each part of a batch of thousands carries it, and a text crosses to a fleet worker and through
   * its schema as one value.
   */
  split?: string;
}

/**
 * The externalId of part `n` (from 1) of a booking split into its batch's details: named by the
 * booking and the part's place in it, so that any other shape of the booking can name its parts.
 */
export const bookingPartId = (reference: string, n: number): string => `${reference}/#${n}`;

/** The place (from 1) of the part `externalId` in the booking `reference`; undefined: not a part by place. */
export function bookingPartNumber(reference: string, externalId: string): number | undefined {
  const prefix = bookingPartId(reference, 0).slice(0, -1);
  if (!externalId.startsWith(prefix)) return undefined;
  const n = Number(externalId.slice(prefix.length));
  return Number.isSafeInteger(n) && n > 0 && bookingPartId(reference, n) === externalId ? n : undefined;
}

/**
 * The first part's ID, which a later part that carries its batch's split asks for too (the service
 * may hold the booking split otherwise: docs/identity.md); undefined for any other record.
 */
export function firstPartOf(booking: Booking, externalId: string): string | undefined {
  if (booking.split === undefined) return undefined;
  const n = bookingPartNumber(booking.reference, externalId);
  return n !== undefined && n > 1 ? bookingPartId(booking.reference, 1) : undefined;
}

/** The amounts of a batch's parts by place (index 0 is part 1), as `split` gives them. */
export const splitAmounts = (split: string): string[] => split.split(' ');

/**
 * A statement's place in a file, for the derived identity of its entries: `key` names the
 * statement (account and statement number, or camt account and `Stmt/Id`), `line` is where this
 * appearance of it starts. A statement a file holds twice repeats its entries' derived IDs.
 */
export interface StatementAppearance {
  key: string;
  line: number;
}
