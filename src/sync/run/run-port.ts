import type { Chunk } from '../chunk.js';
import type { IdentitySettings } from '../identity/settings.js';
import type { ImportPorts } from '../import-file.js';
import type { RunSummary, RunTally } from '../report/summary.js';
import type { RunHandle } from '../run-handle.js';

/** How a run opens a file as records named for reports (the import's `open`). */
export type Opener = ImportPorts['open'];

/** The run's outcomes as stored: what the summary counts, and the lines that failed, per file name. */
export interface SettledRun {
  tally: RunTally;
  failedLines: ReadonlyMap<string, readonly number[]>;
}

/** A file read, as the run's path and name it (for the port's bookkeeping of an interrupt). */
export interface PathRead {
  path: string;
  file: string;
}

/**
 * What a runner says of a run, the one port of the core's run (open-run, read-run, finish-run,
 * run.ts): where its chunks wait and run (in process: a memory gate; the fleet: BullMQ + Redis),
 * and where its outcomes and summary are kept (MemoryRun + report files; the Redis run store).
 * Each runner implements it once: src/in-process/run-port.ts, src/fleet/run-port.ts.
 */
export interface RunPort {
  /** The run as its import and its chunks see it: its stop, claims and outcomes. */
  readonly run: RunHandle;

  // Where chunks wait and run.
  /** Hands a chunk over; resolves once accepted (the import's backpressure). */
  dispatch(chunk: Chunk): Promise<void>;
  /**
   * Resolves once every chunk handed over has settled. Absent where the run's end is a later
   * execution (the fleet's import job waits as the parent of its chunk jobs).
   */
  drain?(): Promise<void>;
  /** How the file at `path` is read: `open` as the run opens it, watched or cut by the runner. */
  watch?(path: string, open: Opener): Opener;
  /** Whether the file is left unread (an interrupted run reads no further file). */
  skip?(path: string): boolean;
  /**
   * Whether the user interrupted the run and what it left unread of `paths` (given what was
   * read); absent or undefined: not interrupted (the files' reports acted on, judged, after-care done).
   */
  interrupted?(paths: readonly string[], reads: readonly PathRead[]): RunSummary['interrupted'] | undefined;

  // Where outcomes and summaries are kept.
  /**
   * The run passed its checks and may write: the feed's identity settings it was checked under
   * are stored before its first write request (storeBeforeFirstWrite; the fleet keeps them with
   * the run for its chunks, which may run on any worker).
   */
  expectWrites(settings: IdentitySettings): Promise<void>;
  /** The summary stored by an earlier finish of this run (a replayed finishing job), if any. */
  storedSummary(): Promise<RunSummary | undefined>;
  /** One pass over the run's stored outcomes. */
  settled(): Promise<SettledRun>;
  /** Dry runs: how many records would have been sent. */
  wouldSendCount(): Promise<number>;
  /** Stores the summary; a second call for the run keeps the first (idempotent). */
  storeSummary(summary: RunSummary): Promise<void>;
  /** Whether the feed alerts still have to judge the run (not done by an earlier finish). */
  alertsOwed(): Promise<boolean>;
  /** Notes that the feed alerts judged the run. */
  alertsJudged(): Promise<void>;
  /**
   * Once the summary is stored: whether a later run reads the run's file again for its failed
   * lines (the fleet's retry runs), so that after-care leaves it. `failedLines` is absent for a
   * replayed finish, which decides from the stored summary. Absent: a runner without retry runs.
   */
  retryOwed?(summary: RunSummary, failedLines?: SettledRun['failedLines']): Promise<boolean>;
}

/** What the run's opening uses of the port. */
export type OpenPort = Pick<RunPort, 'run' | 'expectWrites'>;
/** What the run's reading uses of the port. */
export type ReadPort = Pick<RunPort, 'run' | 'dispatch' | 'watch' | 'skip'>;
/** Where a run is kept, as the run's end reads and stores it (MemoryRun.kept, the Redis store). */
export type KeptRun = Pick<
  RunPort,
  'run' | 'storedSummary' | 'settled' | 'wouldSendCount' | 'storeSummary' | 'alertsOwed' | 'alertsJudged'
>;
/** What the run's end uses of the port. */
export type EndPort = KeptRun & Pick<RunPort, 'retryOwed'>;
