import type { StopReason } from '../run-handle.js';
import {
  type ControlTotal,
  isDifference,
  type ReconcileLine,
  type ReconcileResult,
  type ReconcileSink,
  type Verdict,
} from './reconcile.js';

/** The JSON summary of a reconcile (summary.json in its report folder). */
export interface ReconcileSummary {
  reconcileId: string;
  feed: string;
  kind: string;
  accountId: number;
  /** The service's base URL (or "embedded sandbox"). */
  target?: string;
  /** What of the service was compared ("bank account acme-main (id 17)"). */
  scope?: string;
  /** `equal`: nothing missing or different (extras allowed); `differences`; `stopped`: not compared to the end. */
  state: 'equal' | 'differences' | 'stopped';
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  files: string[];
  counts: Record<Verdict, number>;
  /** Records of the scope without an externalId, which no export can name (not extras). */
  heldWithoutExternalId: number;
  /** Source rows the feed's `exclude` rules leave out. */
  excluded: number;
  controlTotals: { source: ControlTotal; service: ControlTotal };
  /** The first records missing or different, enough to act on without opening the report. */
  firstDifferences: ReconcileLine[];
  stopReason?: StopReason;
}

const FIRST_DIFFERENCES = 20;

/** Whether the service holds what the exports hold: nothing missing or different. */
export const stateOf = (result: ReconcileResult): ReconcileSummary['state'] =>
  result.counts.missing + result.counts.different > 0 ? 'differences' : 'equal';

/** Where a reconcile's lines and summary go: the report folder (in process) or Redis (fleet). */
export interface ReconcileReport extends ReconcileSink {
  finish(summary: ReconcileSummary): Promise<void>;
}

/**
 * `sink`, and the first FIRST_DIFFERENCES lines missing or different it is given, for the summary:
 * also those of a reconcile that stops before its result.
 */
export function keepingFirstDifferences(sink: ReconcileSink): {
  sink: ReconcileSink;
  first: ReconcileLine[];
} {
  const first: ReconcileLine[] = [];
  return {
    first,
    sink: {
      line: (line) => {
        if (isDifference(line) && first.length < FIRST_DIFFERENCES) first.push(line);
        return sink.line(line);
      },
    },
  };
}
