import { KINDS, type RecordKind } from '../kinds/registry.js';
import type { RecordOf } from '../sources/record-of.js';
import { failedAll } from './build-outcome.js';
import type { Chunk } from './chunk.js';
import type { ChunkSettings } from './chunk-settings.js';
import { kindSettings } from './kind-settings.js';
import type { RecordOutcome } from './outcome.js';
import type { ChunkContext } from './ports.js';
import type { RunHandle } from './run-handle.js';
import { ChunkStopError, RunStopError, stopFor, stoppedOutcome } from './stop.js';
import { beforeWrites } from './writes/before-writes.js';

/**
 * Syncs one chunk with its kind's strategy and stores every outcome before returning (so a crash
 * before that replays the chunk, and the existence check makes the replay harmless). An error that
 * dooms the run stops it; the chunk's records are then failed with the reason.
 */
export async function syncChunk(chunk: Chunk, run: RunHandle, ctx: ChunkContext): Promise<RecordOutcome[]> {
  const stopped = await run.stopReason();
  let outcomes: RecordOutcome[];
  if (stopped) outcomes = failedAll(chunk.records, stoppedOutcome(stopped));
  else {
    try {
      const withRun: ChunkContext = {
        ...ctx,
        ...(run.accountStops ? { accountStops: run.accountStops } : {}),
        ...(run.beforeWrite ? { client: beforeWrites(ctx.client, run.beforeWrite.bind(run)) } : {}),
      };
      outcomes = await syncRecords(chunk.kind, chunk.records, chunk.settings, withRun);
    } catch (error) {
      const stop = error instanceof RunStopError ? error : stopFor(error);
      if (!stop) throw error;
      const reason = { code: stop.code, message: stop.message, exitCode: stop.exitCode };
      // Not `alert: true`: the feed's run-stopped notice (src/ops/alerts) is the alert, raised
      // once when the feed starts failing rather than on every run. The logger binds the runId.
      ctx.logger.error({ code: stop.code }, `run stopped: ${stop.message}`);
      await run.stop(reason);
      // What the chunk settled before the stop (records already created) keeps its outcome.
      outcomes =
        error instanceof ChunkStopError ? error.outcomes : failedAll(chunk.records, stoppedOutcome(reason));
    }
  }
  await run.report.record(outcomes);
  return outcomes;
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
