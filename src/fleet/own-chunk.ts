import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { type FleetGate, tenantKey } from '../gate/gate.js';
import type { Chunk } from '../sync/chunk.js';
import { stopwatch } from '../sync/meter.js';
import type { CreateClaims } from '../sync/ports.js';
import { type FleetChunkDeps, syncFleetChunk } from './chunk-execution.js';
import { wakeOneWaiter } from './slot-wait.js';

export interface OwnChunkDeps extends FleetChunkDeps {
  gate: FleetGate;
  /** The chunk jobs a freed slot wakes (the tenant's waiters are chunk jobs). */
  chunkJob(id: string): Promise<Pick<Job, 'promote'> | undefined>;
}

/**
 * A small file's one chunk, synced by its import job in the job's first pass instead of a child
 * job (issue 30: a chunk job, its records' trip through Redis and a finishing pass of its own cost
 * a small run about a third of its CPU). Only with a tenant slot free now: the slot is taken and
 * released as a chunk job does, so the tenant's limit holds across both. Without one, false: the
 * chunk is queued as a child job, which waits in the delayed set (an import never waits for a slot
 * while holding a worker slot). The outcomes go to the same batch a chunk job would store, so a
 * replay of the import (its worker died) finds them, skips the chunk and only finishes the run.
 * On shutdown the error goes up to the import job, which releases itself to another worker.
 */
export async function syncOwnChunk(
  chunk: Chunk,
  limit: number,
  deps: OwnChunkDeps,
  own: { logger: Logger; bindings: Record<string, string | number>; claims: CreateClaims },
): Promise<boolean> {
  const tenant = tenantKey(chunk.accountId);
  const lease = await deps.gate.tryAcquire(tenant, limit);
  if (!lease) return false;
  const bindings = { ...own.bindings, chunk: chunk.seq };
  const logger = own.logger.child({ chunk: chunk.seq });
  logger.debug({ limit }, 'tenant slot taken: the import syncs its one chunk itself');
  try {
    await syncFleetChunk(chunk, deps, {
      logger,
      bindings,
      elapsed: stopwatch(),
      claims: own.claims,
      takeOver: async (error) => {
        // The worker aborted the requests (shutdown): the import releases itself (import-job.ts).
        if (deps.signal?.aborted) throw error;
        return undefined;
      },
    });
    return true;
  } finally {
    await lease.release();
    await wakeOneWaiter(deps.gate, tenant, deps.chunkJob);
  }
}
