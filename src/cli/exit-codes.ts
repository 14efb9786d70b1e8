/** Exit codes of `erp-bridge sync` and `reconcile` (a public contract: scripts depend on them). */
export const EXIT = {
  /** Every record created, updated or skipped. */
  OK: 0,
  /** Some records rejected or failed (see the report). */
  RECORDS_NOT_SYNCED: 1,
  /**
   * An unexpected error (a bug, or a failure nothing more specific names): the same code as records
   * not synced, since what the run did is then unknown; never 2, which says "fix your settings".
   */
  UNEXPECTED_ERROR: 1,
  /** Invalid feed or configuration. */
  INVALID_CONFIG: 2,
  /** The service could not be reached or refused the credentials. */
  SERVICE_UNAVAILABLE: 3,
  /**
   * `reconcile`: the service lacks records the exports hold, or holds them with other values (the
   * report names them); `--repair` could not restore them all. Never a crash or a setting (1, 2).
   */
  DIFFERENCES: 4,
  /** Ended by SIGINT (Ctrl-C) after storing what was in flight; the summary says `interrupted`. */
  INTERRUPTED_SIGINT: 130,
  /** Ended by SIGTERM, likewise. */
  INTERRUPTED_SIGTERM: 143,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code of one run from its end: its stop's code when it stopped (2: a feed or export
 * that cannot be read as configured), else 1 when records were rejected or failed, else 0.
 * `sync` exits with the worst of its runs, and `check` with the worst of its feeds likewise.
 */
export function runExitCode(run: {
  stopReason?: { exitCode: 1 | 2 | 3 } | undefined;
  counts: { rejected: number; failed: number };
}): ExitCode {
  if (run.stopReason) return run.stopReason.exitCode;
  return run.counts.rejected + run.counts.failed > 0 ? EXIT.RECORDS_NOT_SYNCED : EXIT.OK;
}

/** The worst of several exit codes (the highest; none: OK). */
export const worstExit = (codes: readonly ExitCode[]): ExitCode =>
  codes.reduce<ExitCode>((worst, code) => Math.max(worst, code) as ExitCode, EXIT.OK);
