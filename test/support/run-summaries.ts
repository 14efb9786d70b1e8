import { OUTCOMES, type Outcome } from '../../src/sync/outcome.js';
import { buildSummary, type RunSummary, RunTally } from '../../src/sync/report/summary.js';

export interface SummaryOptions extends Partial<Record<Outcome, number>> {
  feed?: string;
  runId?: string;
  accountId?: number;
  dryRun?: boolean;
  stop?: { code: string; message: string };
  /** Records read but without an outcome (a fleet chunk job that failed for good). */
  unaccounted?: number;
}

let runs = 0;

/**
 * A finished run's summary, built as the runners build it (buildSummary over a tally of one
 * outcome per record), from how many records ended in each outcome.
 */
export function summaryOf(options: SummaryOptions = {}): RunSummary {
  const tally = new RunTally();
  let line = 1;
  for (const outcome of OUTCOMES)
    for (let i = 0; i < (options[outcome] ?? 0); i++)
      tally.add({
        file: 'export.csv',
        line: ++line,
        outcome,
        ...(outcome === 'failed' ? { code: 'X' } : {}),
      });
  const now = Date.now();
  return buildSummary({
    runId: options.runId ?? `run-${++runs}`,
    feed: { name: options.feed ?? 'feed-a', kind: 'transactions', accountId: options.accountId ?? 1001 },
    dryRun: options.dryRun ?? false,
    startedAt: now - 1000,
    finishedAt: now,
    files: [{ path: 'export.csv', sha256: 'x', records: tally.total() + (options.unaccounted ?? 0) }],
    tally,
    ...(options.stop ? { stop: { ...options.stop, exitCode: 1 as const } } : {}),
  });
}
