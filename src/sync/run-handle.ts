import type { MappedRecord } from '../sources/record.js';
import type { ReportSink } from './report/sink.js';

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
}
