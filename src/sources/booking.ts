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
}

/**
 * The externalId of part `n` (from 1) of a booking split into its batch's details: named by the
 * booking and the part's place in it, so that any other shape of the booking can name its parts.
 */
export const bookingPartId = (reference: string, n: number): string => `${reference}/#${n}`;

/**
 * A statement's place in a file, for the derived identity of its entries: `key` names the
 * statement (account and statement number, or camt account and `Stmt/Id`), `line` is where this
 * appearance of it starts. A statement a file holds twice repeats its entries' derived IDs.
 */
export interface StatementAppearance {
  key: string;
  line: number;
}
