import type { Logger } from 'pino';
import { type LogBindings, withLogContext } from '../logging/log-context.js';
import { failedAll } from './build-outcome.js';
import type { Chunk } from './chunk.js';
import type { SyncMeter } from './meter.js';
import type { RecordOutcome } from './outcome.js';
import type { RunHandle } from './run-handle.js';

export interface ChunkExecution {
  run: RunHandle;
  /** Bound to the chunk (its seq, and in the fleet its run, feed, tenant and job). */
  logger: Logger;
  /** The same bindings for the lines the shared client writes while the chunk syncs. */
  logContext: LogBindings;
  /** The stopwatch started when the chunk got its tenant slot. */
  elapsed: () => number;
  meter?: SyncMeter | undefined;
  /** Syncs the chunk and stores its outcomes (the sync-chunk job). */
  sync: () => Promise<RecordOutcome[]>;
  /**
   * Settles a chunk the runner aborted itself (its shutdown or interrupt ended the requests) its
   * own way: returns the outcomes it stored, or throws to end the step; undefined when the error is
   * not the runner's doing, which fails the records.
   */
  takeOver?: (error: unknown) => Promise<RecordOutcome[] | undefined>;
  /** Runs once the outcomes are stored, before the chunk counts as synced (e.g. drop its records). */
  stored?: () => Promise<void>;
}

/**
 * Syncs one chunk safely, the step both runners execute once the chunk holds a tenant slot.
 * Service answers are outcomes already, so an error here is a bug or lost infrastructure: every
 * record of the chunk is failed with UNEXPECTED_ERROR and the reason, so the run can finish and a
 * later run retries them. Every run of a chunk is timed, a replay included: it did the work again.
 */
export async function executeChunk(chunk: Chunk, execution: ChunkExecution): Promise<RecordOutcome[]> {
  const { run, logger, meter } = execution;
  let outcomes: RecordOutcome[];
  try {
    outcomes = await withLogContext(execution.logContext, execution.sync);
  } catch (error) {
    const taken = await execution.takeOver?.(error);
    if (taken) outcomes = taken;
    else {
      logger.error({ err: error }, 'chunk failed unexpectedly');
      const message = error instanceof Error ? error.message : String(error);
      outcomes = failedAll(chunk.records, { code: 'UNEXPECTED_ERROR', message });
      await run.report.record(outcomes);
    }
  }
  await execution.stored?.();
  meter?.chunkSynced(chunk.kind, chunk.accountId, execution.elapsed());
  return outcomes;
}
