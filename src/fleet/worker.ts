import { setMaxListeners } from 'node:events';
import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { FleetGate } from '../gate/gate.js';
import type { NoFile } from '../sources/locations/no-file.js';
import type { RunAlerts } from '../sync/alerts.js';
import type { SyncMeter } from '../sync/meter.js';
import type { SyncClient } from '../sync/ports.js';
import type { OpenDatabase } from '../sync/run/database-run.js';
import type { Clock } from '../time/clock.js';
import { within } from '../time/deadline.js';
import { chunkProcessor } from './chunk-job.js';
import { ChunkRecordStore } from './chunk-records.js';
import { RedisCreateClaims } from './create-claims.js';
import { RedisCursorStore } from './cursor-store.js';
import { FeedFileCache } from './feed-cache.js';
import { resolveFeedRef, tickFeedRef } from './feed-ref.js';
import type { FileRegistry } from './file-registry.js';
import type { FleetConfig } from './fleet-config.js';
import { RedisIdentityStore } from './identity-store.js';
import { importProcessor } from './import-job.js';
import { type FleetKeys, QUEUES } from './keys.js';
import { enqueueFeed } from './producer.js';
import type { FleetQueues, TickJobData } from './queues.js';
import { reconcileProcessor } from './reconcile-job.js';
import { RedisReconcileStore } from './reconcile-store.js';
import type { RedisRunStore } from './run-store.js';

export interface WorkerDeps {
  config: FleetConfig;
  /** A connection with maxRetriesPerRequest: null; BullMQ duplicates it for its blocking reads. */
  connection: Redis;
  queues: FleetQueues;
  keys: FleetKeys;
  store: RedisRunStore;
  registry: FileRegistry;
  gate: FleetGate;
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  /** Chunk jobs processed at once by this process (tenant limits apply on top, fleet-wide). */
  concurrency: number;
  /** How long a chunk without a tenant slot sleeps at most (a freed slot wakes it sooner). */
  slotWaitMs?: number;
  /** Judges each finished run and notifies when its feed's health changes. */
  alerts?: RunAlerts;
  /** Hears stored outcomes and chunk durations (metrics). */
  meter?: SyncMeter;
  /** The service this worker writes to (its base URL), named in each run's summary. */
  target?: string;
  /** Database feeds (issue 29): how their database is opened (the reading side's openDatabase). */
  openDatabase?: OpenDatabase;
}

export interface RunningWorker {
  /** Stops taking jobs; in-flight ones get `graceMs` to finish, then are released to other workers. */
  close(graceMs?: number): Promise<{ released: boolean }>;
  /** Drops the workers' Redis connections at once (a shutdown past its deadline). */
  disconnect(): void;
}

/** How long the forced close after the grace period may take (it still talks to Redis). */
const FORCED_CLOSE_MS = 2_000;

/**
 * A fleet worker: executes the handlers of jobs/ (through the import and chunk adapters), the
 * scheduler's ticks and fleet reconciles. A killed worker's jobs are recovered by the others once their lock expires
 * (stalled jobs); the existence checks make the replay harmless.
 */
export function startWorker(deps: WorkerDeps): RunningWorker {
  const abort = new AbortController();
  // One signal for every job in flight by design; each chunk listens on it a few times at once
  // (its request, a retry wait, a slot wait). Node warns past 10 listeners, as if it leaked.
  setMaxListeners(4 * (deps.concurrency + 2) + 10, abort.signal);
  const records = new ChunkRecordStore(deps.connection, deps.keys, deps.config.runRetentionMs);
  const identity = new RedisIdentityStore(deps.connection, deps.keys);
  // Import jobs (both passes) and ticks read their feed file parsed once per version of it.
  const feeds = new FeedFileCache();
  const common = {
    connection: deps.connection,
    prefix: deps.config.prefix,
    lockDuration: deps.config.jobLockMs,
    stalledInterval: Math.max(1000, Math.floor(deps.config.jobLockMs / 2)),
    // Replays are harmless (idempotent syncing), so a job may stall a few times before failing.
    maxStalledCount: 5,
  };
  const imports = new Worker(
    QUEUES.imports,
    importProcessor({
      feedsDir: deps.config.feedsDir,
      loadFeed: feeds.load,
      store: deps.store,
      registry: deps.registry,
      chunks: deps.queues.chunks,
      records,
      chunkContext: (feed, logger) => ({
        client: deps.client,
        clock: deps.clock,
        logger,
        accountId: feed.accountId,
        signal: abort.signal,
        // The target bank account is created once even when two workers import files of it at once.
        claims: new RedisCreateClaims(deps.connection, deps.keys),
      }),
      logger: deps.logger,
      maxRetryRuns: deps.config.failedRetryRuns,
      signal: abort.signal,
      ...(deps.alerts ? { alerts: deps.alerts } : {}),
      meter: deps.meter,
      identity,
      ...(deps.target ? { target: deps.target } : {}),
      cursor: new RedisCursorStore(deps.connection, deps.keys),
      ...(deps.openDatabase ? { openDatabase: deps.openDatabase } : {}),
      // A file of one chunk is synced by its import job when its tenant has a slot free.
      gate: deps.gate,
    }),
    { ...common, concurrency: Math.max(2, Math.ceil(deps.concurrency / 2)) },
  );
  const chunks = new Worker(
    QUEUES.chunks,
    chunkProcessor({
      client: deps.client,
      clock: deps.clock,
      gate: deps.gate,
      store: deps.store,
      redis: deps.connection,
      keys: deps.keys,
      chunks: deps.queues.chunks,
      records,
      logger: deps.logger,
      signal: abort.signal,
      ...(deps.slotWaitMs !== undefined ? { slotWaitMs: deps.slotWaitMs } : {}),
      meter: deps.meter,
      identity,
    }),
    { ...common, concurrency: deps.concurrency },
  );
  const ticks = new Worker(
    QUEUES.ticks,
    async (job: Job<TickJobData>) => {
      // The tick names a feed file; it is read only from this worker's own feed directory.
      const loaded = await resolveFeedRef(
        deps.config.feedsDir,
        tickFeedRef(deps.config.feedsDir, job.data.feedFile),
        feeds.load,
      );
      // A scheduled tick that finds no export fails (the dashboard's ticks and the worker's log show
      // it, naming the glob and the nearest names), unless the feed says no file is normal for it.
      let noFile: NoFile | undefined;
      const results = await enqueueFeed(
        loaded,
        { onNoFile: (found) => (noFile = found) },
        {
          feedsDir: deps.config.feedsDir,
          registry: deps.registry,
          store: deps.store,
          imports: deps.queues.imports,
          logger: deps.logger.child({ feed: loaded.feed.name, job: job.id }),
          now: () => deps.clock.now(),
        },
      );
      if (noFile?.stop) throw new Error(`feed ${loaded.feed.name}: ${noFile.stop}: ${noFile.message}`);
      return { enqueued: results.filter((r) => r.enqueued !== false).length };
    },
    { ...common, concurrency: 1 },
  );
  // One reconcile at a time per worker: each holds a compact index of a whole feed's keys.
  const reconciles = new Worker(
    QUEUES.reconciles,
    reconcileProcessor({
      feedsDir: deps.config.feedsDir,
      store: new RedisReconcileStore(deps.connection, deps.keys, deps.config.runRetentionMs),
      client: deps.client,
      clock: deps.clock,
      logger: deps.logger,
      signal: abort.signal,
      ...(deps.target ? { target: deps.target } : {}),
    }),
    { ...common, concurrency: 1 },
  );
  const workers = [imports, chunks, ticks, reconciles];
  for (const worker of workers) {
    worker.on('failed', (job, error) =>
      deps.logger.error({ err: error, job: job?.id, queue: worker.name }, 'job failed'),
    );
    // Lost Redis connections (a restart, a failover): BullMQ reconnects and goes on by itself.
    // Without a listener it prints each error raw on stderr, around the JSON log.
    worker.on('error', (error) =>
      deps.logger.warn({ err: error, queue: worker.name }, 'Redis connection error; reconnecting'),
    );
  }

  return {
    close: async (graceMs = deps.config.shutdownGraceMs) => {
      let timer: NodeJS.Timeout | undefined;
      const graceful = Promise.all(workers.map((w) => w.close())).then(() => false);
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      });
      const released = await Promise.race([graceful, timeout]);
      clearTimeout(timer);
      if (released) {
        // Past the grace period: abort in-flight work and leave its jobs to the stalled-job
        // check of the other workers (their locks are no longer renewed). A forced close still
        // talks to Redis; with Redis down it would wait forever, so it gets a deadline too.
        abort.abort(new Error('worker shutting down'));
        await within(
          FORCED_CLOSE_MS,
          'forced worker close',
          Promise.all(workers.map((w) => w.close(true))),
        ).catch(() => undefined);
      }
      return { released };
    },
    disconnect: () => {
      for (const worker of workers) void worker.disconnect().catch(() => undefined);
    },
  };
}
