import { KINDS, type RecordKind } from '../kinds/registry.js';
import { type LogBindings, withLogContext } from '../logging/log-context.js';
import type { RecordOf } from '../sources/record-of.js';
import { failedAll } from './build-outcome.js';
import type { Chunk } from './chunk.js';
import type { ChunkSettings } from './chunk-settings.js';
import { kindSettings } from './kind-settings.js';
import type { SyncMeter } from './meter.js';
import type { RecordOutcome } from './outcome.js';
import type { ChunkContext } from './ports.js';
import type { RunHandle } from './run-handle.js';
import { ChunkStopError, RunStopError, stopFor, stoppedOutcome } from './stop.js';
import { beforeWrites } from './writes/before-writes.js';

/**
 * What a runner hands over with a chunk that holds its tenant slot: the strategy's ports (the
 * chunk's account comes from the chunk, the account stops from the run) and the runner's own ways.
 */
export interface ChunkExecution extends Omit<ChunkContext, 'accountId' | 'accountStops'> {
  run: RunHandle;
  /** The same bindings as `logger`'s, for the lines the shared client writes while the chunk syncs. */
  logContext: LogBindings;
  /** The stopwatch started when the chunk got its tenant slot. */
  elapsed: () => number;
  meter?: SyncMeter | undefined;
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
 * Syncs one chunk that holds its tenant slot, the step both runners execute: the kind's strategy,
 * then every outcome stored before returning (so a crash before that replays the chunk, and the
 * existence check makes the replay harmless). An error that dooms the run stops it and fails the
 * chunk's records with the reason. Service answers are outcomes already, so any other error is a
 * bug or lost infrastructure: every record is failed with UNEXPECTED_ERROR, so the run can finish
 * and a later run retries them. Every run of a chunk is timed, a replay included: it did the work.
 */
export async function runChunk(chunk: Chunk, execution: ChunkExecution): Promise<RecordOutcome[]> {
  const { run, logger, meter } = execution;
  const recorded = async (outcomes: RecordOutcome[]) => {
    await run.report.record(outcomes);
    return outcomes;
  };
  let outcomes: RecordOutcome[];
  try {
    outcomes = await withLogContext(execution.logContext, async () =>
      recorded(await settle(chunk, execution)),
    );
  } catch (error) {
    // A failed store of the outcomes lands here too: the records are then failed, stored again.
    const taken = await execution.takeOver?.(error);
    if (taken) outcomes = taken;
    else {
      logger.error({ err: error }, 'chunk failed unexpectedly');
      const message = error instanceof Error ? error.message : String(error);
      outcomes = await recorded(failedAll(chunk.records, { code: 'UNEXPECTED_ERROR', message }));
    }
  }
  await execution.stored?.();
  meter?.chunkSynced(chunk.kind, chunk.accountId, execution.elapsed());
  return outcomes;
}

/** The chunk's outcomes, not stored yet: its kind's strategy's, or the run's stop on every record. */
async function settle(chunk: Chunk, execution: ChunkExecution): Promise<RecordOutcome[]> {
  const { run, logger } = execution;
  const stopped = await run.stopReason();
  if (stopped) return failedAll(chunk.records, stoppedOutcome(stopped));
  try {
    const ctx: ChunkContext = {
      client: run.beforeWrite ? beforeWrites(execution.client, run.beforeWrite.bind(run)) : execution.client,
      clock: execution.clock,
      logger,
      accountId: chunk.accountId,
      signal: execution.signal,
      ...(execution.claims ? { claims: execution.claims } : {}),
      ...(run.accountStops ? { accountStops: run.accountStops } : {}),
    };
    return await syncRecords(chunk.kind, chunk.records, chunk.settings, ctx);
  } catch (error) {
    const stop = error instanceof RunStopError ? error : stopFor(error);
    if (!stop) throw error;
    const reason = { code: stop.code, message: stop.message, exitCode: stop.exitCode };
    // Not `alert: true`: the feed's run-stopped notice (src/ops/alerts) is the alert, raised
    // once when the feed starts failing rather than on every run. The logger binds the runId.
    logger.error({ code: stop.code }, `run stopped: ${stop.message}`);
    await run.stop(reason);
    // What the chunk settled before the stop (records already created) keeps its outcome.
    return error instanceof ChunkStopError
      ? error.outcomes
      : failedAll(chunk.records, stoppedOutcome(reason));
  }
}

/** The kind's strategy on its own records: `KINDS[kind]` with a generic kind is that kind's definition. */
function syncRecords<K extends RecordKind>(
  kind: K,
  records: readonly RecordOf<K>[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return KINDS[kind].sync(records, kindSettings(kind, settings), ctx);
}
