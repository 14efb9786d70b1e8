import type { MappedRecord } from '../sources/record.js';
import type { AccountStops } from './ports.js';
import type { ReportSink } from './report/sink.js';
import type { FirstSeen } from './seen-ids.js';

export interface StopReason {
  code: string;
  message: string;
  exitCode: 1 | 2 | 3;
}

/**
 * A run as the jobs see it: where outcomes go, and whether the run has been stopped (a condition
 * that would fail every further request). In memory for `sync`, in Redis for the fleet.
 */
export interface RunHandle {
  readonly runId: string;
  readonly report: ReportSink;
  stopReason(): Promise<StopReason | undefined>;
  stop(reason: StopReason): Promise<void>;
  /** Dry runs: the records that would be sent. */
  wouldSend?(records: readonly MappedRecord[]): Promise<void>;
  /**
   * Claims each record's externalId for this run (every chunk and file of it), in order: undefined
   * for the first record with its externalId, else where that first one was (docs/once-only.md).
   * Absent: no run-wide check (each chunk still keeps the first of each externalId).
   */
  claimExternalIds?(kind: string, records: readonly MappedRecord[]): Promise<(FirstSeen | undefined)[]>;
  /** The run's stops of single named accounts, shared by its chunks (ports.ts). */
  readonly accountStops?: AccountStops;
  /**
   * Awaited before each create or update request the run's chunks send: the first stores the
   * feed's identity settings (identity/check.ts, storeBeforeFirstWrite). Absent: nothing to do.
   */
  beforeWrite?(): Promise<void>;
}
