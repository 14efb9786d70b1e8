import type {
  ConsoleOutcome,
  ConsoleReconcile,
  ConsoleReconcileLine,
  ConsoleRun,
} from './summary-schemas.js';

/**
 * What the console reads, whatever stores it: report folders of in-process runs
 * (reports-console-source.ts) and the fleet's Redis (src/fleet/console-source.ts). Pages know only this port.
 */
export interface ConsoleSource {
  /** Every tenant x feed with its last run; folders that cannot be read, as such. */
  overview(): Promise<Overview>;
  /** A run's summary, `damaged` when its folder holds none readable, undefined when there is no such run. */
  run(runId: string): Promise<RunDetail | undefined>;
  /** A run's rejected and failed records matching `query`, one page of them. */
  problems(runId: string, query: RecordQuery): Promise<RecordPage<ConsoleOutcome>>;
  /** Every record `problems` would page through, streamed (the CSV download). */
  allProblems(runId: string, search: string): AsyncIterable<ConsoleOutcome>;
  /** A feed's runs, oldest first (at most `limit`, the newest). */
  history(feed: string, limit: number): Promise<ConsoleRun[]>;
  reconcile(reconcileId: string): Promise<ReconcileDetail | undefined>;
  /** A reconcile's lines other than `equal`, matching `query`, one page. */
  differences(reconcileId: string, query: RecordQuery): Promise<RecordPage<ConsoleReconcileLine>>;
}

export interface FeedRow {
  accountId: number;
  feed: string;
  /** The feed's kind ('' when no run told it yet). */
  kind: string;
  /** Its last finished run; absent for a watched feed with no run the source still holds. */
  last?: ConsoleRun;
  /**
   * How many runs of this tenant x feed the source holds, when it counts them cheaply (report
   * folders; the fleet's overview would need a Redis count per feed: its feed page lists them).
   */
  runs?: number;
  /** Whether new exports arrive as often as the feed's `source.expectEvery` says, when the source knows. */
  freshness?: FeedFreshnessNote;
  /** The feed's open alerts in words, when the source knows them (empty: none). */
  alerts?: string[];
  /** Runs of this tenant x feed under way now, when the source knows them (the fleet). */
  running?: RunningNote;
}

export interface RunningNote {
  /** How many. */
  runs: number;
  /** When the oldest of them started (ISO). */
  since: string;
  /** The newest of them (its page). */
  runId: string;
}

/** A feed's freshness verdict as the fleet judges it (src/fleet/freshness.ts), in its own words. */
export interface FeedFreshnessNote {
  stale: boolean;
  /** Its figures in a few words (the overview's cell). */
  brief: string;
  /** The whole sentence, with what to check when stale. */
  message: string;
}

export interface ReconcileRow {
  accountId: number;
  feed: string;
  last: ConsoleReconcile;
}

/** A folder whose summary is missing or not a summary: shown, never a crash. */
export interface DamagedFolder {
  id: string;
  problem: string;
}

export interface Overview {
  rows: FeedRow[];
  reconciles: ReconcileRow[];
  damaged: DamagedFolder[];
  /** What the source can tell beyond runs: the page shows a column only for what it knows. */
  knows: { runs: boolean; freshness: boolean; alerts: boolean };
  /** What the overview leaves out and why (a cap reached), said above its table. */
  notice?: string;
}

/** A run's or reconcile's summary as a page shows it, or why it cannot (its folder or entry damaged). */
export type Detail<S> = { summary: S } | { damaged: DamagedFolder };
export type RunDetail = Detail<ConsoleRun>;
export type ReconcileDetail = Detail<ConsoleReconcile>;

export interface RecordQuery {
  /** Case-insensitive text searched in externalId, code, message, file and line; '' = all. */
  q: string;
  /** 1-based. */
  page: number;
  pageSize: number;
}

export interface RecordPage<T> {
  items: T[];
  /** Matching records seen (all of them unless `truncated`). */
  matched: number;
  /** The file was longer than the console reads (lines scanned capped): counts are a lower bound. */
  truncated: boolean;
  /** Lines that were not a record (damaged or too long), skipped. */
  unreadable: number;
}
