import type { RecordKind } from '../kinds/registry.js';
import type { RecordOutcome } from './outcome.js';

/**
 * What the executors of the sync jobs (the in-process runner, the fleet's chunk and import jobs)
 * tell their owner for metrics. A port, so the sync engine, the runner and the queue never depend
 * on a metrics library; src/ops implements it with Prometheus counters.
 */
export interface SyncMeter {
  /** Outcomes stored for a run of this kind and tenant; a batch stored again (a replay) is not told twice. */
  recorded(kind: RecordKind, accountId: number, outcomes: readonly RecordOutcome[]): void;
  /** A chunk is synced and its outcomes are stored, `seconds` after it got its tenant slot. */
  chunkSynced(kind: RecordKind, accountId: number, seconds: number): void;
}

/** Starts a monotonic timer; the returned function gives the seconds elapsed since. */
export function stopwatch(): () => number {
  const start = performance.now();
  return () => (performance.now() - start) / 1000;
}
