import { type Job, type Queue, WaitingChildrenError } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ImportFilePayload } from '../../jobs/import-file.js';
import type { Feed } from '../config/feed.js';
import { withLogContext } from '../logging/log-context.js';
import type { Location } from '../sources/locations/location.js';
import { openLocation } from '../sources/locations/open-location.js';
import type { RunAlerts } from '../sync/alerts.js';
import type { Chunk } from '../sync/chunk.js';
import type { FeedAccount } from '../sync/feed-account.js';
import type { SyncMeter } from '../sync/meter.js';
import type { ChunkContext } from '../sync/ports.js';
import { openRun, runAccount } from '../sync/run/open-run.js';
import { exportOpener, ReadResult, readFiles } from '../sync/run/read-run.js';
import { type ChunkJobData, queueChunk } from './chunk-job.js';
import type { ChunkRecordStore } from './chunk-records.js';
import { checkExportOf, JobRefused, resolveFeedRef } from './feed-ref.js';
import type { FileRegistry } from './file-registry.js';
import { finishFleetRun } from './finish-run.js';
import type { RedisIdentityStore } from './identity-store.js';
import type { RedisRunStore } from './run-store.js';
import { refusedUnlessValid, releaseToAnotherWorker } from './worker-steps.js';

/**
 * What an import job carries: references only (feed-ref.ts). The feed is named by its file
 * relative to the fleet's feed directory and read by the worker itself; the file must be an export
 * of that feed. A job with a feed definition of its own fails for good (strict object).
 */
export const ImportJobData = z.strictObject({
  runId: ImportFilePayload.shape.runId,
  /** The feed file, relative to the worker's feed directory (ERP_BRIDGE_FEEDS_DIR, --feeds). */
  feed: z.string().min(1),
  /**
   * The export's path as the feed's location names it (local: absolute; SFTP: the server's path;
   * S3: the key); it must match the feed's source.path glob. The worker opens the location itself.
   */
  file: ImportFilePayload.shape.file,
  dryRun: ImportFilePayload.shape.dryRun,
  /** A retry run: only these lines (they failed transiently in the run before). */
  onlyLines: z.array(z.int().positive()).optional(),
  retryRun: z.int().nonnegative().optional(),
  /** `enqueue --accept-new-identity`: go on although the feed's identity settings changed. */
  acceptNewIdentity: z.boolean().optional(),
  /** Set once the file has been read: the job then waits for its chunks and finishes the run. */
  read: z
    .strictObject({
      ...ReadResult.shape,
      /**
       * The account the reading pass ran for (its feed's accountExternalId resolved then): the
       * finishing pass names it without asking the service again. Absent: resolved again.
       */
      accountId: z.int().nonnegative().optional(),
    })
    .optional(),
});
export type ImportJobData = z.input<typeof ImportJobData>;

export interface ImportJobDeps {
  /** The worker's own feed directory: where the feed a job names is read from. */
  feedsDir: string;
  store: RedisRunStore;
  registry: FileRegistry;
  chunks: Queue<ChunkJobData>;
  records: ChunkRecordStore;
  chunkContext(feed: Feed, logger: Logger): ChunkContext;
  logger: Logger;
  maxRetryRuns: number;
  alerts?: RunAlerts;
  signal?: AbortSignal;
  /** How many chunks of one run may wait in the queue at once: the import's backpressure. */
  maxQueuedChunks?(feed: Feed): number;
  /** Hears the outcomes the import settles itself (rejected, excluded rows) once stored. */
  meter?: SyncMeter;
  /** The feeds' identity settings (src/sync/identity); without it, no check. */
  identity?: RedisIdentityStore;
  /** The service this worker writes to (its base URL), named in each run's summary. */
  target?: string;
  /** Where remote locations' secrets are read (the variables a feed names); default process.env. */
  env?: NodeJS.ProcessEnv;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The BullMQ side of `jobs/import-file`: the run's parent job. First pass: read the file through
 * the shared handler, adding each chunk as a child job (a flow), never more than a few chunks of
 * the run queued at once, so a huge file neither sits in Redis whole nor starves other tenants.
 * Then it waits for its children and, when they have all finished, writes the run's summary.
 */
export function importProcessor(deps: ImportJobDeps) {
  return async (job: Job<ImportJobData>, token?: string): Promise<{ records: number }> => {
    const data = refusedUnlessValid({ name: 'import-file', payload: ImportJobData }, job.data);
    const loaded = await resolveFeedRef(deps.feedsDir, data.feed);
    checkExportOf(loaded, data.file, JobRefused);
    // The feed's account by externalId is resolved once per run, by the pass that reads the file,
    // before anything names it (the run record keeps the producer's 0 for such a feed: the
    // producer does not ask the service); the finishing pass takes it from the job.
    const resolved = data.read?.accountId;
    const account = await runAccount(
      loaded.feed,
      deps.chunkContext(loaded.feed, deps.logger).client,
      deps.signal,
      resolved,
    );
    const feed = account.feed;
    if (loaded.feed.accountExternalId !== undefined && !account.stop && resolved === undefined)
      await deps.store.setAccount(data.runId, feed.accountId);
    const bindings = {
      runId: data.runId,
      feed: feed.name,
      tenant: feed.accountId,
      job: String(job.id),
    };
    const logger = deps.logger.child(bindings);
    // The worker reaches the export itself, from the feed: never through the producer's disk.
    const location = openLocation(feed.source.location, deps.env ?? process.env);
    try {
      // Also on the lines of the shared client while this job uses it (log-context.ts).
      return await withLogContext(bindings, () =>
        importRun(job, token, { ...data, feed }, location, logger, account),
      );
    } catch (error) {
      if (!deps.signal?.aborted) throw error;
      // Another worker reads the file again; chunks already stored are skipped and chunk jobs
      // already queued keep their ids, so nothing is queued or created twice. Awaited: released
      // before the location closes.
      return await releaseToAnotherWorker(job, token, logger, 'import');
    } finally {
      await location.close();
    }
  };

  async function importRun(
    job: Job<ImportJobData>,
    token: string | undefined,
    data: Omit<z.output<typeof ImportJobData>, 'feed'> & { feed: Feed },
    location: Location,
    logger: Logger,
    account: FeedAccount<Feed>,
  ): Promise<{ records: number }> {
    const { feed } = data;
    let read = data.read;
    if (!read) {
      const { meter } = deps;
      const run = deps.store.handle(
        data.runId,
        'import',
        meter && ((stored) => meter.recorded(feed.kind, feed.accountId, stored)),
      );
      const wanted = data.onlyLines ? new Set(data.onlyLines) : undefined;
      const cap = deps.maxQueuedChunks?.(feed) ?? Math.max(4, feed.concurrency * 2);
      const open = exportOpener(location, wanted && (() => wanted));
      // Before anything of the file is sent (a replayed import checks again and finds the run
      // stopped, or the settings it keeps stored).
      const { identity } = deps;
      const { prepare, predict } = await openRun(
        {
          account,
          dryRun: data.dryRun,
          files: [data.file],
          open,
          ...(identity ? { identity: { store: identity, accept: data.acceptNewIdentity === true } } : {}),
        },
        {
          handle: run,
          // The run's chunks store these before their first write (chunk-job.ts), on any worker.
          expectWrites: async (settings) => identity?.expectWrites(data.runId, settings),
        },
        {
          logger,
          context: (f) => deps.chunkContext(f, logger),
          chunkContext: () => deps.chunkContext(feed, logger),
        },
      );
      const [file] = await readFiles(
        [data.file],
        { runId: data.runId, feed, dryRun: data.dryRun },
        {
          run,
          opener: () => open,
          dispatch: async (chunk: Chunk) => {
            // A replayed import (its worker died) skips chunks whose outcomes are already stored.
            if (await deps.store.hasBatch(data.runId, `chunk:${chunk.seq}`)) return;
            const blocked = Date.now();
            while (((await job.getDependenciesCount({ unprocessed: true })).unprocessed ?? 0) >= cap) {
              // Waiting for the run's own chunks: a worker shutting down must not wait here forever.
              deps.signal?.throwIfAborted();
              await pause(100);
            }
            logger.debug({ queuedChunk: chunk.seq, blockedMs: Date.now() - blocked, cap }, 'chunk queued');
            await queueChunk(deps.chunks, deps.records, chunk, feed.concurrency, {
              jobId: `${data.runId}-${chunk.seq}`,
              parent: { id: String(job.id), queue: job.queueQualifiedName },
              // A chunk that fails for good must not hold its run open forever: the run
              // finishes and reports the records it has no outcome for.
              ignoreDependencyOnFailure: true,
            });
          },
        },
        { logger, ...(deps.signal ? { signal: deps.signal } : {}), prepare, predict },
      );
      if (!file) throw new Error(`the import of ${data.file} read no file`);
      read = { ...file.read, accountId: feed.accountId };
      await job.updateData({ ...job.data, read });
    }
    if (token && (await job.moveToWaitingChildren(token))) throw new WaitingChildrenError();
    await finishFleetRun(
      data.runId,
      data,
      read,
      { ...deps, location, context: deps.chunkContext(feed, logger) },
      logger,
    );
    return { records: read.records };
  }
}
