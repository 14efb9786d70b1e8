import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { Feed } from '../config/feed.js';
import type { Chunk } from '../sync/chunk.js';
import type { SyncMeter } from '../sync/meter.js';
import { RunTally } from '../sync/report/summary.js';
import type { RunPort } from '../sync/run/run-port.js';
import { type ChunkJobData, queueChunk } from './chunk-job.js';
import type { ChunkRecordStore } from './chunk-records.js';
import type { FileRegistry } from './file-registry.js';
import type { RedisIdentityStore } from './identity-store.js';
import type { RedisRunStore, RunFields } from './run-store.js';

export interface FleetPortDeps {
  store: RedisRunStore;
  registry: FileRegistry;
  chunks: Queue<ChunkJobData>;
  records: ChunkRecordStore;
  maxRetryRuns: number;
  signal?: AbortSignal;
  /** How many chunks of one run may wait in the queue at once: the import's backpressure. */
  maxQueuedChunks?(feed: Feed): number;
  /** Hears the outcomes the import settles itself (rejected, excluded rows) once stored. */
  meter?: SyncMeter;
  /** The feeds' identity settings (src/sync/identity); without it, no check. */
  identity?: RedisIdentityStore;
}

/** The run an import job is for: its id, feed, file, and its place among the file's retry runs. */
export interface FleetRun {
  runId: string;
  feed: Feed;
  file: string;
  retryRun?: number | undefined;
  /** A database feed's run (issue 29): no file to retry lines of; its next run reads them again. */
  database?: boolean;
  /**
   * This is the job's first activation (BullMQ's attemptsStarted is 1): no earlier pass of it
   * stored outcomes or queued chunks. Its first chunk is then held back (`held`), for the import to
   * sync itself should it be the file's only one.
   */
  first?: boolean;
}

/** The fleet's RunPort and what the import job does with the chunk it may sync itself. */
export interface FleetRunPort extends RunPort {
  /** The chunk held back, taken off the port: the file's only chunk once the reading is done. */
  takeHeld(): Chunk | undefined;
  /** Queues a chunk as a child job of the import, as dispatch does (one held back, found no slot). */
  queue(chunk: Chunk): Promise<void>;
  /** How many chunks this pass queued as child jobs. */
  queued(): number;
  /**
   * The run's fields read at the start of its end (one HMGET): the end's first ask of each is
   * answered from them, later asks from Redis. Taken once every chunk has settled.
   */
  finishing(fields: RunFields): void;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The fleet's RunPort, for one import job (the run's parent job): chunks wait in the `chunks`
 * queue as the job's children (never more than a few of the run queued at once, so a huge file
 * neither sits in Redis whole nor starves other tenants) and run on any worker; outcomes, the
 * summary and whether the alerts judged the run are kept in the Redis run store; lines that failed
 * are owed a retry run by the file registry (up to `maxRetryRuns`, then dead letter).
 */
export function fleetPort(job: Job, of: FleetRun, deps: FleetPortDeps, logger: Logger): FleetRunPort {
  const { store, meter, identity } = deps;
  const { runId, feed } = of;
  const cap = deps.maxQueuedChunks?.(feed) ?? Math.max(4, feed.concurrency * 2);
  /** Chunks this pass queued (as children of the job): at most that many of them wait. */
  let dispatched = 0;
  /** The first chunk of a first pass, not queued yet: synced by the import if no other follows. */
  let held: Chunk | undefined;
  const queue = async (chunk: Chunk) => {
    const blocked = Date.now();
    // Redis is asked only once this pass has queued `cap` chunks: before that fewer than `cap`
    // can be waiting (a small file's run, one chunk, never asks). A replayed pass queues its
    // earlier pass's unsettled chunks again (same ids, same order) before any new one, so those
    // count here too.
    while (
      dispatched >= cap &&
      ((await job.getDependenciesCount({ unprocessed: true })).unprocessed ?? 0) >= cap
    ) {
      // Waiting for the run's own chunks: a worker shutting down must not wait here forever.
      deps.signal?.throwIfAborted();
      await pause(100);
    }
    logger.debug({ queuedChunk: chunk.seq, blockedMs: Date.now() - blocked, cap }, 'chunk queued');
    await queueChunk(deps.chunks, deps.records, chunk, feed.concurrency, {
      jobId: `${runId}-${chunk.seq}`,
      parent: { id: String(job.id), queue: job.queueQualifiedName },
      // A chunk that fails for good must not hold its run open forever: the run
      // finishes and reports the records it has no outcome for.
      ignoreDependencyOnFailure: true,
    });
    dispatched++;
  };
  let seen = 0;
  /** The finishing pass's read of the run, each field served once (`finishing`). */
  let fields: Partial<RunFields> = {};
  const first = <K extends keyof RunFields>(key: K, read: () => Promise<RunFields[K]>) => {
    if (!(key in fields)) return read();
    const value = fields[key] as RunFields[K];
    delete fields[key];
    return Promise.resolve(value);
  };
  const handle = store.handle(
    runId,
    'import',
    meter && ((stored) => meter.recorded(feed.kind, feed.accountId, stored)),
  );
  return {
    run: { ...handle, stopReason: () => first('stop', handle.stopReason) },
    dispatch: async (chunk) => {
      // A replayed import (its worker died) skips chunks whose outcomes are already stored. Asked
      // on a first pass too: a pass whose lock was lost while it ran goes on beside its replay.
      if (await store.hasBatch(runId, `chunk:${chunk.seq}`)) return;
      // The held chunk goes first, so chunks are queued in order (the cap above counts on it).
      if (held) {
        const first = held;
        held = undefined;
        await queue(first);
      }
      if (of.first && seen++ === 0) held = chunk;
      else await queue(chunk);
    },
    takeHeld: () => {
      const chunk = held;
      held = undefined;
      return chunk;
    },
    queue,
    queued: () => dispatched,
    finishing: (read) => {
      fields = { ...read };
    },
    // The run's chunks store these before their first write (chunk-job.ts), on any worker.
    expectWrites: async (settings) => identity?.expectWrites(runId, settings),
    storedSummary: () => first('summary', () => store.summary(runId)),
    // One pass over the stored outcomes: the tally and the lines owed a retry.
    settled: async () => {
      const tally = new RunTally();
      const failedLines = new Map<string, number[]>();
      for await (const outcome of store.outcomes(runId)) {
        tally.add(outcome);
        if (outcome.outcome !== 'failed') continue;
        const lines = failedLines.get(outcome.file);
        if (lines) lines.push(outcome.line);
        else failedLines.set(outcome.file, [outcome.line]);
      }
      return { tally, failedLines };
    },
    wouldSendCount: () => first('wouldSend', () => store.wouldSendCount(runId)),
    storeSummary: (summary) => store.finish(summary),
    alertsOwed: async () => !(await first('judged', () => store.judged(runId))),
    alertsJudged: () => store.noteJudged(runId),
    // A file owed a retry run stays where it is until the last retry: that run reads it again.
    retryOwed: async (summary, failedLines) => {
      // A database feed's position stays before the failed rows (advance-cursor.ts): the feed's
      // next run reads them again, whatever the retry runs of files would count.
      if (of.database) return summary.counts.failed > 0;
      const retryRun = of.retryRun ?? 0;
      if (!failedLines) return summary.counts.failed > 0 && retryRun < deps.maxRetryRuns;
      const lines = [...failedLines.values()].flat().sort((a, b) => a - b);
      return deps.registry.oweRetry(feed.name, of.file, runId, lines, retryRun, deps.maxRetryRuns);
    },
  };
}
