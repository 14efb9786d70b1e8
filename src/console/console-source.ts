import type {
  ConsoleOutcome,
  ConsoleReconcile,
  ConsoleReconcileLine,
  ConsoleRun,
} from './summary-schemas.js';

/**
 * What the console reads, whatever stores it: report folders of in-process runs
 * (reports-console-source.ts) today, the fleet's run store next. Pages know only this port.
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
  kind: string;
  last: ConsoleRun;
  /** How many runs of this tenant x feed the source holds. */
  runs: number;
  /** Whether new exports arrive as often as the feed's `source.expectEvery` says, when the source knows. */
  freshness?: FeedFreshnessNote;
}

/** A feed's freshness verdict as the fleet judges it (src/fleet/freshness.ts), in its own words. */
export interface FeedFreshnessNote {
  stale: boolean;
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
}

export type RunDetail = { summary: ConsoleRun } | { damaged: DamagedFolder };
export type ReconcileDetail = { summary: ConsoleReconcile } | { damaged: DamagedFolder };

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
