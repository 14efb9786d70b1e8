import { addDecimals, DecimalSum, isZeroDecimal, negateDecimal } from '../values/decimal.js';

/** A booked balance as a statement gives it: exact signed decimal text and its ISO date. */
export interface BookedBalance {
  amount: string;
  date: string;
}

/**
 * One bank statement's own figures (camt `Stmt`/`Rpt`, MT940 `:20:` to `-`): its booked balances
 * and the booked entries between them, for the arithmetic check and the bank account's balance.
 */
export interface StatementTotals {
  /** Line where the statement starts. */
  line: number;
  /** camt `Id`, MT940 `:20:` (and `:28C:`); '' when the file gives none. */
  id: string;
  /** The account as the file names it (IBAN, `Othr/Id`, `:25:`), '' when none. */
  account: string;
  /** The account is given as another identifier than an IBAN (camt `Othr/Id`). */
  otherId?: true;
  currency?: string;
  /** The booked balance at the start of the statement (camt OPBD or PRCD; MT940 :60F:/:60M:). */
  opening?: BookedBalance;
  /**
   * Whether `opening` is the previous day's closing (camt PRCD: its date is the day before): then
   * it is the start-of-day balance of the day after its date.
   */
  openingIsPreviousClose?: boolean;
  /** The booked balance at its end (camt CLBD; MT940 :62F:/:62M:): the end of its date. */
  closing?: BookedBalance;
  /** Booked entries (pending ones are not in a booked balance) and their exact signed sum. */
  entries: number;
  sum: string;
  /** Entries whose amount could not be read: the arithmetic cannot be checked without them. */
  unreadable: number;
}

/**
 * A copy of `text` that keeps nothing else alive. V8 makes a substring a view of the string it was
 * cut from, and the readers cut values out of the chunk of the file being read: a statement's
 * figures outlive that chunk (a file's list of them is kept to its end), and one kept account
 * name held a whole chunk of text alive per statement — 180 MB over a large MT940 file.
 */
const own = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/** Collects one statement's figures while a reader goes through it. */
export class StatementTally {
  private totals: StatementTotals;
  /** A sum cheap to add to per entry (a BigInt addition per entry showed in the reader's CPU). */
  private readonly sum = new DecimalSum();

  constructor(line: number) {
    this.totals = { line, id: '', account: '', entries: 0, sum: '0', unreadable: 0 };
  }

  get figures(): StatementTotals {
    return { ...this.totals, sum: this.sum.toString() };
  }

  set(fields: Partial<Pick<StatementTotals, 'id' | 'account' | 'currency'>>): void {
    for (const key of ['id', 'account', 'currency'] as const) {
      const value = fields[key];
      if (value !== undefined) this.totals[key] = own(value);
    }
  }

  balance(which: 'opening' | 'closing', balance: BookedBalance, previousClose = false): void {
    this.totals[which] = { amount: own(balance.amount), date: own(balance.date) };
    if (which === 'opening') this.totals.openingIsPreviousClose = previousClose;
  }

  entry(signedAmount: string): void {
    this.totals.entries++;
    this.sum.add(signedAmount);
  }

  unreadableEntry(): void {
    this.totals.unreadable++;
  }

  /** Whether the statement has anything to tell: a balance or an entry. */
  hasFigures(): boolean {
    const t = this.totals;
    return t.opening !== undefined || t.closing !== undefined || t.entries > 0 || t.unreadable > 0;
  }
}

/**
 * closing − (opening + entries), exact, when the statement has both booked balances, all its
 * entries were read and they do not add up; undefined otherwise.
 */
export function statementDifference(totals: StatementTotals): string | undefined {
  if (!totals.opening || !totals.closing || totals.unreadable > 0) return undefined;
  const expected = addDecimals(totals.opening.amount, totals.sum);
  const difference = addDecimals(totals.closing.amount, negateDecimal(expected));
  return isZeroDecimal(difference) ? undefined : difference;
}

/** The day after an ISO date (yyyy-MM-dd), in the proleptic Gregorian calendar. */
export function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/**
 * The start-of-day balance a statement proves, as the service keeps a bank account's balance
 * (`balanceReference` on `balanceDate`): the closing booked balance is the start of the next day;
 * without one, the opening booked balance is the start of its own day (a PRCD the next day's).
 */
export function startOfDayBalance(totals: StatementTotals): BookedBalance | undefined {
  if (totals.closing) return { amount: totals.closing.amount, date: nextDay(totals.closing.date) };
  if (!totals.opening) return undefined;
  return totals.openingIsPreviousClose
    ? { amount: totals.opening.amount, date: nextDay(totals.opening.date) }
    : totals.opening;
}
