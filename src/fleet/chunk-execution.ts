import type { Logger } from 'pino';
import { syncChunkJob } from '../../jobs/sync-chunk.js';
import type { LogBindings } from '../logging/log-context.js';
import type { Chunk } from '../sync/chunk.js';
import { storeBeforeFirstWrite } from '../sync/identity/check.js';
import type { SyncMeter } from '../sync/meter.js';
import type { RecordOutcome } from '../sync/outcome.js';
import type { CreateClaims, SyncClient } from '../sync/ports.js';
import type { ChunkExecution } from '../sync/run-chunk.js';
import type { Clock } from '../time/clock.js';
import type { RedisIdentityStore } from './identity-store.js';
import type { RedisRunStore } from './run-store.js';

/** What a fleet chunk needs to sync once it holds its tenant slot, whichever job runs it. */
export interface FleetChunkDeps {
  client: SyncClient;
  clock: Clock;
  store: RedisRunStore;
  signal?: AbortSignal;
  meter?: SyncMeter;
  identity?: RedisIdentityStore;
}

/** The job's own ways with the chunk: its logger and bindings, its stopwatch, its shutdown step. */
export interface FleetChunkRun {
  logger: Logger;
  bindings: LogBindings;
  elapsed: () => number;
  /** Creates of one (account, externalId) are serialised fleet-wide (docs/once-only.md). */
  claims: CreateClaims;
  takeOver: NonNullable<ChunkExecution['takeOver']>;
  stored?: () => Promise<void>;
}

/**
 * Syncs a chunk that holds its tenant slot, as a chunk job does and as an import job does with
 * the one chunk of a small file (import-job.ts): outcomes in the batch `chunk:<seq>` of the run,
 * the feed's identity settings stored before the first write. Both store the same batch, so a
 * replay of either finds it and the run's report is the same whichever job synced the chunk.
 */
export function syncFleetChunk(
  chunk: Chunk,
  deps: FleetChunkDeps,
  own: FleetChunkRun,
): Promise<RecordOutcome[]> {
  const { meter, identity } = deps;
  const handle = deps.store.handle(
    chunk.runId,
    `chunk:${chunk.seq}`,
    meter && ((stored) => meter.recorded(chunk.kind, chunk.accountId, stored)),
  );
  const run = identity
    ? { ...handle, beforeWrite: storeBeforeFirstWrite(() => identity.storeForRun(chunk.runId, chunk.feed)) }
    : handle;
  const execution: ChunkExecution = {
    run,
    client: deps.client,
    clock: deps.clock,
    logger: own.logger,
    // The shared client's lines (retries, alerts) then carry the chunk's bindings too.
    logContext: own.bindings,
    elapsed: own.elapsed,
    meter,
    claims: own.claims,
    ...(deps.signal ? { signal: deps.signal } : {}),
    takeOver: own.takeOver,
    ...(own.stored ? { stored: own.stored } : {}),
  };
  return syncChunkJob.run(chunk, execution);
}
