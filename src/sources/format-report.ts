import * as z from 'zod';
import {
  type BalanceCandidate,
  type BalanceUpdate,
  type FileStatements,
  ReadStatements,
  readStatements,
  settleStatements,
} from './formats/statement-report.js';
import type { StatementTotals } from './formats/statement-totals.js';

// The run (src/sync) carries these as they are, naming none of their parts: a format that reports
// something new of its files, or a kind that acts on it, changes this file and its own, never the
// run's.

/**
 * What a format's reading reports of one file besides its records, once read (bank statement
 * formats: the file's statements). Serialisable: a fleet import job keeps it in its queue data
 * between reading the file and finishing the run, its keys beside the read's own.
 */
export const FormatReport = z.strictObject({
  /** Bank statement formats: the file's statements; their balances are applied at the finish. */
  statements: ReadStatements.optional(),
});
export type FormatReport = z.output<typeof FormatReport>;

/** A file's FormatReport once its records are settled: its keys in the run summary's file entry. */
export interface SettledReport {
  /** Bank statement formats: the file's statements, those that do not add up, and the balances applied. */
  statements?: FileStatements;
}

/** What a kind does with a file's report once the file's records are settled (KindDefinition.settles). */
export interface ReportSettler {
  /** Applies the newest booked balance of each statement account to the account the kind writes to. */
  balances?(candidates: readonly BalanceCandidate[]): Promise<BalanceUpdate[]>;
}

/**
 * The file's report from what its format's reading found (FormatReading's statements; absent when
 * the format has none or the file was not read), once its records were read; a stopped file (not
 * read as configured) proves nothing.
 */
export function formatReport(
  statements: (() => readonly StatementTotals[]) | undefined,
  fileStopped: boolean,
): FormatReport {
  const read = readStatements(statements?.() ?? [], fileStopped);
  return read ? { statements: read } : {};
}

/**
 * The summary's part of a file's report, once its records are settled: what `settler` (the kind's)
 * does with it; absent, the report as read. A run that stopped or was interrupted (`notApplied`:
 * why) acts on nothing: the next run does.
 */
export async function settleReport(
  report: FormatReport,
  settler: ReportSettler | undefined,
  notApplied?: string,
): Promise<SettledReport> {
  if (!report.statements) return {};
  const apply = settler?.balances?.bind(settler);
  return { statements: await settleStatements(report.statements, apply, notApplied) };
}
