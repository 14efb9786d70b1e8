import * as z from 'zod';
import { type StatementTotals, startOfDayBalance, statementDifference } from './statement-totals.js';

// What a bank statement format reports of a file (its part of sources/format-report.ts): schemas,
// not only types, as a fleet import job keeps a file's statements in its queue data between
// reading the file and finishing the run (src/fleet/import-job.ts).

/** A statement whose booked balances and entries do not add up: opening + entries ≠ closing. */
export const StatementWarning = z.strictObject({
  code: z.literal('STATEMENT_DOES_NOT_ADD_UP'),
  line: z.int().positive(),
  statement: z.string(),
  account: z.string(),
  opening: z.string(),
  entries: z.int().nonnegative(),
  entriesSum: z.string(),
  closing: z.string(),
  /** closing − (opening + entries), exact. */
  difference: z.string(),
  message: z.string(),
});
export type StatementWarning = z.output<typeof StatementWarning>;

/** The newest start-of-day balance one statement account's statements prove in a file. */
export const BalanceCandidate = z.strictObject({
  /** The account as the file names it ('' when it names none). */
  account: z.string(),
  /** The account is given as another identifier than an IBAN (camt `Othr/Id`). */
  otherId: z.literal(true).optional(),
  currency: z.string().optional(),
  balance: z.strictObject({ amount: z.string(), date: z.string() }),
  statementLine: z.int().positive(),
});
export type BalanceCandidate = z.output<typeof BalanceCandidate>;

/** A file's statements as read: the summary's part and the balances still to apply. */
export const ReadStatements = z.strictObject({
  count: z.int().nonnegative(),
  /** Statements that do not add up (all of them; `warnings` lists the first WARNINGS_LISTED). */
  unbalanced: z.int().nonnegative(),
  warnings: z.array(StatementWarning),
  candidates: z.array(BalanceCandidate),
});
export type ReadStatements = z.output<typeof ReadStatements>;

/**
 * What became of one bank account's balance after a file of statements: the answer of the kind
 * that applies the balances (ReportSettler.balances, sources/format-report.ts).
 */
export interface BalanceUpdate {
  /** The target bank account's externalId (not applied: the statement's account). */
  bankAccount: string;
  bankAccountId?: number;
  /** The start-of-day balance the newest statement proves (balanceReference on balanceDate). */
  balanceDate: string;
  balanceReference: string;
  /** Line of the statement it comes from. */
  statementLine: number;
  outcome: 'updated' | 'unchanged' | 'not-newer' | 'would-update' | 'not-applied' | 'failed';
  message: string;
}

/** A file's statements as the run summary lists them: what was read, and the balances applied. */
export type FileStatements = Omit<ReadStatements, 'candidates'> & { balances: BalanceUpdate[] };

const WARNINGS_LISTED = 50;

/** The arithmetic warnings of a file's statements. */
export function statementWarnings(
  statements: readonly StatementTotals[],
): Pick<ReadStatements, 'unbalanced' | 'warnings'> {
  let unbalanced = 0;
  const warnings: StatementWarning[] = [];
  for (const s of statements) {
    const difference = statementDifference(s);
    if (difference === undefined || !s.opening || !s.closing) continue;
    unbalanced++;
    if (warnings.length >= WARNINGS_LISTED) continue;
    const name = s.id === '' ? 'the statement' : `statement ${s.id}`;
    warnings.push({
      code: 'STATEMENT_DOES_NOT_ADD_UP',
      line: s.line,
      statement: s.id,
      account: s.account,
      opening: s.opening.amount,
      entries: s.entries,
      entriesSum: s.sum,
      closing: s.closing.amount,
      difference,
      message: `${name}${s.account === '' ? '' : ` of ${s.account}`} does not add up: opening ${s.opening.amount} + ${s.entries} booked entries (${s.sum}) ≠ closing ${s.closing.amount}, off by ${difference}; the bank's file is incomplete or wrong: ask the bank, and check the account's transactions`,
    });
  }
  return { unbalanced, warnings };
}

/** Per statement account, the newest start-of-day balance of the file's statements (the later on a tie). */
export function balanceCandidates(statements: readonly StatementTotals[]): BalanceCandidate[] {
  const newest = new Map<string, BalanceCandidate>();
  for (const s of statements) {
    const balance = startOfDayBalance(s);
    if (!balance) continue;
    const held = newest.get(s.account);
    if (held && held.balance.date > balance.date) continue;
    newest.set(s.account, {
      account: s.account,
      ...(s.otherId ? { otherId: s.otherId } : {}),
      ...(s.currency ? { currency: s.currency } : {}),
      balance,
      statementLine: s.line,
    });
  }
  return [...newest.values()];
}

/**
 * What the summary says of a file's statements. A stopped file (it could not be read as
 * configured) proves no balance: none is applied from it.
 */
export function readStatements(
  statements: readonly StatementTotals[],
  fileStopped: boolean,
): ReadStatements | undefined {
  if (statements.length === 0) return undefined;
  return {
    count: statements.length,
    ...statementWarnings(statements),
    candidates: fileStopped ? [] : balanceCandidates(statements),
  };
}

/**
 * A file's statements for the summary, with the balances they prove applied by `apply` (the kind's,
 * once the file's records are settled; none: the kind applies no balance). A run that stopped or
 * was interrupted applies none: each is listed as not applied, with why, for the next run to apply.
 */
export async function settleStatements(
  read: ReadStatements,
  apply: ((candidates: readonly BalanceCandidate[]) => Promise<BalanceUpdate[]>) | undefined,
  notApplied?: string,
): Promise<FileStatements> {
  const { candidates, ...summary } = read;
  if (!apply || candidates.length === 0) return { ...summary, balances: [] };
  if (notApplied !== undefined)
    return {
      ...summary,
      balances: candidates.map((c) => ({
        bankAccount: c.account,
        balanceDate: c.balance.date,
        balanceReference: c.balance.amount,
        statementLine: c.statementLine,
        outcome: 'not-applied' as const,
        message: `not applied: ${notApplied}; the next run applies it`,
      })),
    };
  return { ...summary, balances: await apply(candidates) };
}
