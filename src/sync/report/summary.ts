import { secrets } from '../../logging/secret-scrubber.js';
import type { SettledReport } from '../../sources/format-report.js';
import type { FileEncoding } from '../../sources/text-encoding.js';
import { addDecimals, DecimalSum } from '../../sources/values/decimal.js';
import { OUTCOMES, type Outcome, type RecordOutcome } from '../outcome.js';

/** A file of the run as read, before what its format reported of it is settled. */
export interface ReadFile {
  path: string;
  sha256: string;
  records: number;
  /** The encoding the file was read with and whether auto-detection chose it (absent: not decoded). */
  encoding?: FileEncoding;
  /** Workbook formats: the sheet read (the one named in `source.sheet`, else the first one shown). */
  sheet?: string;
}

/** A file in the run summary: as read, then the keys of its format's report, settled (format-report.ts). */
export interface ReportedFile extends ReadFile, SettledReport {}

export interface ControlTotal {
  records: number;
  /** Exact sum of the records' amounts (decimal text). */
  amount: string;
}

export type RunState =
  | 'running'
  | 'completed'
  | 'completed_with_errors'
  | 'stopped'
  | 'failed'
  /** Ended by SIGINT/SIGTERM: unsent records are failed/INTERRUPTED, unread lines in `interrupted`. */
  | 'interrupted';

/** The JSON summary of a run (report.json). */
export interface RunSummary {
  runId: string;
  feed: string;
  kind: string;
  accountId: number;
  dryRun: boolean;
  /** Where the run wrote: the service's base URL, or "embedded sandbox". */
  target?: string;
  state: RunState;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
  files: ReportedFile[];
  counts: Record<Outcome, number>;
  /** Of the `created`, how many set a period's value (replace mode): a rerun sets them again. */
  valuesSet?: number;
  controlTotals: Record<Outcome, ControlTotal> & { all: ControlTotal };
  /** The first problems (rejected/failed), enough to act on without opening the full report. */
  firstErrors: RecordOutcome[];
  /** Why the run stopped early, when it did (e.g. BANK_ACCOUNT_NOT_MODIFIABLE and what to do). */
  stopReason?: { code: string; message: string; exitCode: 1 | 2 | 3 };
  /** Dry runs: how many records would have been sent (listed in would-send.ndjson). */
  wouldSend?: number;
  /**
   * Set when a signal ended the run: which one, and each file not read to its end with the last
   * line handed on (0: not opened). Lines after it have no outcome: the next run reads them.
   */
  interrupted?: { signal: string; unread: { path: string; readUpToLine: number }[] };
  /**
   * Exports listed but not arrived yet (still being written: no marker file yet, or size and mtime
   * still changing): not read by this run; a later run (or the scheduler's watch) imports them.
   */
  waiting?: { path: string; reason: string }[];
  /**
   * No export matched and the feed allows it (`source.allowNoFiles`): the glob and the names
   * nearest to it, so a run that read nothing says so (without the key such a run stops, exit 2).
   */
  noFile?: string;
}

const FIRST_ERRORS = 20;

/**
 * Accumulates outcomes into counts and exact control totals. Independent of where reports are
 * stored: the in-process runner writes files, the fleet keeps the same model in Redis.
 */
export class RunTally {
  private readonly counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  private readonly sums = Object.fromEntries(OUTCOMES.map((o) => [o, new DecimalSum()])) as Record<
    Outcome,
    DecimalSum
  >;
  readonly firstErrors: RecordOutcome[] = [];
  #valuesSet = 0;

  add(outcome: RecordOutcome): void {
    this.counts[outcome.outcome]++;
    if (outcome.valueSet && outcome.outcome === 'created') this.#valuesSet++;
    if (outcome.amount !== undefined) {
      // The overall sum is folded from these at the end: one exact addition per record, not two.
      this.sums[outcome.outcome].add(outcome.amount);
    }
    if (
      (outcome.outcome === 'rejected' || outcome.outcome === 'failed') &&
      this.firstErrors.length < FIRST_ERRORS
    ) {
      this.firstErrors.push(outcome);
    }
  }

  total(): number {
    return OUTCOMES.reduce((sum, o) => sum + this.counts[o], 0);
  }

  countsSnapshot(): Record<Outcome, number> {
    return { ...this.counts };
  }

  get valuesSet(): number {
    return this.#valuesSet;
  }

  controlTotals(): RunSummary['controlTotals'] {
    const totals = Object.fromEntries(
      OUTCOMES.map((o) => [o, { records: this.counts[o], amount: this.sums[o].toString() }]),
    ) as Record<Outcome, ControlTotal>;
    const all = OUTCOMES.reduce((sum, o) => addDecimals(sum, totals[o].amount), '0');
    return { ...totals, all: { records: this.total(), amount: all } };
  }

  /** The run's final state from what happened to its records. */
  finalState(stopped: boolean): RunState {
    if (stopped) return 'stopped';
    return this.counts.rejected + this.counts.failed > 0 ? 'completed_with_errors' : 'completed';
  }
}

export interface SummaryInput {
  runId: string;
  feed: { name: string; kind: string; accountId: number };
  dryRun: boolean;
  startedAt: number;
  finishedAt: number;
  files: ReportedFile[];
  tally: RunTally;
  stop?: { code: string; message: string; exitCode: 1 | 2 | 3 };
  wouldSend?: number;
  target?: string;
  interrupted?: RunSummary['interrupted'];
  waiting?: RunSummary['waiting'];
  noFile?: string;
}

/** The summary of a finished run, the same wherever the run happened (in process or on the fleet). */
export function buildSummary(input: SummaryInput): RunSummary {
  const { tally, stop } = input;
  return {
    runId: input.runId,
    feed: input.feed.name,
    kind: input.feed.kind,
    accountId: input.feed.accountId,
    dryRun: input.dryRun,
    ...(input.target ? { target: input.target } : {}),
    state: input.interrupted ? 'interrupted' : tally.finalState(stop !== undefined),
    startedAt: new Date(input.startedAt).toISOString(),
    finishedAt: new Date(input.finishedAt).toISOString(),
    durationMs: input.finishedAt - input.startedAt,
    files: input.files,
    counts: tally.countsSnapshot(),
    ...(tally.valuesSet > 0 ? { valuesSet: tally.valuesSet } : {}),
    controlTotals: tally.controlTotals(),
    firstErrors: tally.firstErrors,
    ...(stop
      ? { stopReason: { code: stop.code, message: secrets.scrub(stop.message), exitCode: stop.exitCode } }
      : {}),
    ...(input.dryRun ? { wouldSend: input.wouldSend ?? 0 } : {}),
    ...(input.interrupted ? { interrupted: input.interrupted } : {}),
    ...(input.waiting && input.waiting.length > 0 ? { waiting: input.waiting } : {}),
    ...(input.noFile ? { noFile: input.noFile } : {}),
  };
}
