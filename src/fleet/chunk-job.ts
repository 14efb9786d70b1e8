import { DelayedError, type Job, type JobsOptions, type Queue, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import * as z from 'zod';
import { parsePayload } from '../../jobs/job.js';
import { SyncChunkHeader, syncChunkJob } from '../../jobs/sync-chunk.js';
import { type FleetGate, tenantKey } from '../gate/gate.js';
import type { Chunk } from '../sync/chunk.js';
import { type SyncMeter, stopwatch } from '../sync/meter.js';
import type { SyncClient } from '../sync/ports.js';
import type { Clock } from '../time/clock.js';
import { syncFleetChunk } from './chunk-execution.js';
import type { ChunkRecordStore } from './chunk-records.js';
import { RedisCreateClaims } from './create-claims.js';
import type { RedisIdentityStore } from './identity-store.js';
import type { FleetKeys } from './keys.js';
import type { RedisRunStore } from './run-store.js';
import { delayUntilSlot, slotOrWaiter, wakeOneWaiter } from './slot-wait.js';
import { releaseToAnotherWorker } from './worker-steps.js';

/**
 * What a chunk job carries: the chunk without its records, which wait beside it
 * (chunk-records.ts). Re-validated by the worker, records included: they crossed a process boundary.
 */
export interface ChunkJobData {
  /** The feed's per-tenant limit: chunks of this account in flight across the fleet. */
  limit: number;
  chunk: SyncChunkHeader;
}
const ChunkJobPayload = z.strictObject({ limit: z.int().positive(), chunk: SyncChunkHeader });

/** Queues one chunk: its records first, then the job that will find them. */
export async function queueChunk(
  queue: Queue<ChunkJobData>,
  records: ChunkRecordStore,
  chunk: Chunk,
  limit: number,
  options: JobsOptions & { jobId: string },
): Promise<void> {
  await records.put(options.jobId, chunk.records);
  await queue.add('sync-chunk', { limit, chunk: { ...chunk, records: chunk.records.length } }, options);
}

export interface ChunkJobDeps {
  client: SyncClient;
  clock: Clock;
  gate: FleetGate;
  store: RedisRunStore;
  redis: Redis;
  keys: FleetKeys;
  chunks: Queue<ChunkJobData>;
  records: ChunkRecordStore;
  logger: Logger;
  signal?: AbortSignal;
  /** How long a chunk without a tenant slot sleeps at most; a freed slot wakes it sooner. */
  slotWaitMs?: number;
  /** Hears newly stored outcomes and each chunk's duration (metrics). */
  meter?: SyncMeter;
  /** The feeds' identity settings: the run's are stored before its first write (import-job.ts). */
  identity?: RedisIdentityStore;
}

/**
 * The BullMQ side of `jobs/sync-chunk`. It takes a tenant slot first; without one, the job goes
 * back to the delayed set (it holds no worker slot while it waits, and no attempt is used) and is
 * registered as a waiter of the tenant, so the worker that frees a slot promotes it at once.
 * Outcomes are stored before the job completes: a crash before that replays the chunk, and the
 * existence checks make the replay harmless.
 */
export function chunkProcessor(deps: ChunkJobDeps) {
  const { gate } = deps;
  const wake = (tenant: string) => wakeOneWaiter(gate, tenant, (id) => deps.chunks.getJob(id));

  /**
   * The chunk with its records, validated; undefined when a run of this job already stored its
   * outcomes and deleted them (a crash between that and the job's completion replays it).
   */
  async function loadRecords(jobId: string, header: SyncChunkHeader): Promise<Chunk | undefined> {
    const records = await deps.records.get(jobId);
    if (records !== undefined) return parsePayload(syncChunkJob, { ...header, records });
    if (await deps.store.hasBatch(header.runId, `chunk:${header.seq}`)) return undefined;
    // Retrying cannot bring them back: the run reports the chunk's lines as never settled.
    throw new UnrecoverableError(
      `the records of chunk ${header.seq} are gone from Redis (expired or lost); its lines stay unsettled`,
    );
  }

  return async (job: Job<ChunkJobData>, token?: string): Promise<{ outcomes: number }> => {
    const { limit, chunk: header } = parsePayload({ name: 'sync-chunk', payload: ChunkJobPayload }, job.data);
    const tenant = tenantKey(header.accountId);
    const jobId = String(job.id);
    const bindings = {
      runId: header.runId,
      feed: header.feed,
      tenant: header.accountId,
      job: jobId,
      chunk: header.seq,
    };
    const logger = deps.logger.child(bindings);
    const lease = await slotOrWaiter(gate, jobId, { tenant, limit });
    if (!lease) {
      const { promoted } = await delayUntilSlot(gate, job, { tenant, limit }, deps.slotWaitMs ?? 2000, token);
      logger.debug({ limit, promoted }, 'no free tenant slot: chunk delayed');
      throw new DelayedError();
    }
    logger.debug({ limit }, 'tenant slot taken: chunk syncing');
    const elapsed = stopwatch();
    try {
      await gate.removeWaiter(tenant, jobId);
      const chunk = await loadRecords(jobId, header);
      if (!chunk) return { outcomes: 0 };
      const outcomes = await syncFleetChunk(chunk, deps, {
        logger,
        bindings,
        elapsed,
        claims: new RedisCreateClaims(deps.redis, deps.keys),
        takeOver: async () => {
          if (!deps.signal?.aborted) return undefined;
          // The worker aborted the chunk's requests (worker.ts). Failed records would complete the
          // job, and a plain shutdown would show up as failed records in the run's report. Another
          // worker replays it; the existence checks make that harmless.
          return releaseToAnotherWorker(job, token, logger, 'chunk');
        },
        // Stored outcomes settle the records: a replay from here on finds the batch, not the records.
        stored: () => deps.records.delete(jobId),
      });
      return { outcomes: outcomes.length };
    } finally {
      await lease.release();
      await wake(tenant);
    }
  };
}
