import type { Logger } from 'pino';
import { syncChunkJob } from '../../jobs/sync-chunk.js';
import type { Feed } from '../config/feed.js';
import { type Lease, tenantKey, type WaitingGate } from '../gate/gate.js';
import { failedAll } from '../sync/build-outcome.js';
import type { Chunk } from '../sync/chunk.js';
import { processCreateClaims } from '../sync/create-claims.js';
import { type SyncMeter, stopwatch } from '../sync/meter.js';
import type { ChunkContext, SyncClient } from '../sync/ports.js';
import type { Clock } from '../time/clock.js';
import type { MemoryRun } from './memory-run.js';

export interface MemoryDispatchDeps {
  client: SyncClient;
  clock: Clock;
  gate: WaitingGate;
  signal?: AbortSignal;
  /**
   * Aborted (reason: the signal's name) when the user interrupts: reading stops, no new chunk is
   * sent, read-but-unsent records end failed/INTERRUPTED, in-flight chunks settle (until `signal`
   * aborts them at the end of the grace period). The summary says `interrupted`.
   */
  interrupt?: AbortSignal;
  /** Hears stored outcomes and chunk durations (metrics). */
  meter?: SyncMeter;
}

/** Hands the execution of a chunk that holds its slot to the run's end, which waits for it. */
export type Running = (task: Promise<void>) => void;

/** What a strategy's ports are in this process, whatever the account. */
type ProcessPorts = Omit<ChunkContext, 'accountId' | 'accountStops'>;

// Creates of one (account, externalId), the target bank account too, are serialised across the
// runs of this process.
function processPorts(deps: MemoryDispatchDeps, logger: Logger): ProcessPorts {
  return { client: deps.client, clock: deps.clock, logger, signal: deps.signal, claims: processCreateClaims };
}

/** The tenant's context in this process (the run's opening and a dry run's prediction). */
export function processContext(deps: MemoryDispatchDeps, accountId: number, logger: Logger): ChunkContext {
  return { ...processPorts(deps, logger), accountId };
}

/**
 * Where the in-process runner's chunks wait (the memory gate: at most `feed.concurrency` of one
 * tenant at a time) and run (here, `syncChunkJob`). The returned dispatch resolves once the chunk
 * holds its slot and hands its execution, which releases the slot when settled, to `running`.
 * After an interrupt a chunk is not sent: its records end failed/INTERRUPTED.
 */
export function memoryDispatch(run: MemoryRun, feed: Feed, deps: MemoryDispatchDeps, logger: Logger) {
  const { interrupt, meter } = deps;
  const interrupted = () => interrupt?.aborted === true;
  const notSent = async (chunk: Chunk) => {
    const outcomes = failedAll(chunk.records, {
      code: 'INTERRUPTED',
      message: `not sent: the run was interrupted (${String(interrupt?.reason)}); the next run sends it`,
    });
    await run.report.record(outcomes);
    return outcomes;
  };
  // Waiting for a slot ends on an interrupt too: those records are then not sent.
  const slotSignal = AbortSignal.any([interrupt, deps.signal].filter((s) => s !== undefined));
  return async (chunk: Chunk, running: Running): Promise<void> => {
    if (interrupted()) {
      await notSent(chunk);
      return;
    }
    let lease: Lease;
    try {
      lease = await deps.gate.acquire(tenantKey(chunk.accountId), feed.concurrency, slotSignal);
    } catch (error) {
      if (!interrupted()) throw error;
      await notSent(chunk);
      return;
    }
    const synced = syncChunkJob.run(chunk, {
      ...processPorts(deps, logger.child({ chunk: chunk.seq })),
      run,
      // The shared client's lines (retries, alerts) carry the chunk too (log-context.ts).
      logContext: { chunk: chunk.seq },
      elapsed: stopwatch(),
      meter,
      // Past the grace period of an interrupt its requests were aborted: not sent (or not
      // confirmed), which the next run's existence check settles.
      takeOver: async () => (interrupted() && deps.signal?.aborted ? notSent(chunk) : undefined),
    });
    running(synced.then(() => undefined).finally(() => lease.release()));
  };
}
