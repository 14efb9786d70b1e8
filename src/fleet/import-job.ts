import { type Job, WaitingChildrenError } from 'bullmq';
import type { Logger } from 'pino';
import * as z from 'zod';
import { ImportFilePayload } from '../../jobs/import-file.js';
import type { Feed } from '../config/feed.js';
import type { LoadedFeed } from '../config/load-feed.js';
import type { FleetGate } from '../gate/gate.js';
import { withLogContext } from '../logging/log-context.js';
import { databaseForRun } from '../sources/database/database-for-run.js';
import { type DatabaseSourceOf, fileSourceOf, isDatabaseSource } from '../sources/formats/registry.js';
import { nameOf } from '../sources/locations/export-file.js';
import { openLocation } from '../sources/locations/open-location.js';
import type { RunAlerts } from '../sync/alerts.js';
import type { ChunkContext } from '../sync/ports.js';
import type { CursorStore } from '../sync/run/cursor.js';
import { type DatabaseRun, type OpenDatabase, openForRun } from '../sync/run/database-run.js';
import { runAccount } from '../sync/run/open-run.js';
import { ReadResult } from '../sync/run/read-run.js';
import { endRun, type RunDeps, readRun } from '../sync/run/run.js';
import { checkExportOf, JobRefused, resolveFeedRef } from './feed-ref.js';
import { syncOwnChunk } from './own-chunk.js';
import { endedIfRefused } from './refused-run.js';
import { type FleetPortDeps, type FleetRunPort, fleetPort } from './run-port.js';
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
  /**
   * A database feed's `enqueue --reimport` (issue 29): read from the start, whatever cursor
   * position is stored. Only a database feed's job has it (an earlier worker, which cannot read a
   * database feed either, refuses it).
   */
  fromStart: z.literal(true).optional(),
  /**
   * A database feed's reading pass has begun (set before it reads): a pass that finds it set is a
   * replay after its worker died, whose read may differ from the first (rows updated meanwhile move
   * in cursor order, so chunk seqs the first pass stored or queued hold other rows now). Such a run
   * stores no position: the feed's next run reads its rows again.
   */
  reading: z.literal(true).optional(),
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

export interface ImportJobDeps extends FleetPortDeps {
  /** The worker's own feed directory: where the feed a job names is read from. */
  feedsDir: string;
  /** How a feed file is read (the worker's FeedFileCache); default loadFeedFile, every time. */
  loadFeed?: (file: string) => Promise<LoadedFeed>;
  chunkContext(feed: Feed, logger: Logger): ChunkContext;
  logger: Logger;
  alerts?: RunAlerts;
  /** The service this worker writes to (its base URL), named in each run's summary. */
  target?: string;
  /** Where remote locations' secrets are read (the variables a feed names); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Database feeds: where their cursor positions are kept (cursor-store.ts). */
  cursor?: CursorStore;
  /** Database feeds: how their database is opened (the reading side's openDatabase). */
  openDatabase?: OpenDatabase;
  /**
   * The tenant slots: with them, a file of one chunk is synced by its import job itself when a
   * slot is free (own-chunk.ts); without, every chunk is a child job.
   */
  gate?: FleetGate;
}

/**
 * The BullMQ side of `jobs/import-file`: the run's parent job, the run of the core (sync/run/run.ts)
 * in two executions. First: open the run and read the file, each chunk a child job (fleetPort);
 * what was read is kept in the job (`read`). Then it waits for its children and, when they have
 * all finished, ends the run (summary, alerts, after-care, retry runs owed).
 */
export function importProcessor(deps: ImportJobDeps) {
  return async (job: Job<ImportJobData>, token?: string): Promise<{ records: number }> => {
    const data = refusedUnlessValid({ name: 'import-file', payload: ImportJobData }, job.data);
    // A refused job ends its run (stopped, with its summary) before it fails for good; not once
    // the file was read: its chunks' outcomes are in the run, which a summary of nothing would hide.
    const loaded = await endedIfRefused(data.read ? undefined : data.runId, deps, async () => {
      const ref = await resolveFeedRef(deps.feedsDir, data.feed, deps.loadFeed);
      checkExportOf(ref, data.file, JobRefused);
      return ref;
    });
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
    const database = isDatabaseSource(feed.source) ? feed.source : undefined;
    // The worker reaches the export itself, from the feed: never through the producer's disk.
    const location = database
      ? undefined
      : openLocation(fileSourceOf(feed.source).location, deps.env ?? process.env);
    const wanted = data.onlyLines ? new Set(data.onlyLines) : undefined;
    const { identity } = deps;
    const input = {
      runId: data.runId,
      account,
      dryRun: data.dryRun,
      ...(location ? { location } : {}),
      paths: [data.file],
      ...(wanted ? { lines: () => wanted } : {}),
      ...(identity ? { identity: { store: identity, accept: data.acceptNewIdentity === true } } : {}),
    };
    // BullMQ counts the job's activations: on the first, no earlier pass queued a chunk or stored
    // outcomes, so the pass may sync its file's one chunk itself (a replay queues it as before).
    // Not a database feed's: its range read is kept in the job before its chunks sync, so a worker
    // dying in a chunk leaves a replayed chunk, not a replayed read (which stores no position).
    const first = !data.read && database === undefined && job.attemptsStarted <= 1;
    const port = fleetPort(job, { ...data, feed, database: database !== undefined, first }, deps, logger);
    const runDeps: RunDeps = {
      logger,
      now: Date.now,
      context: (f) => deps.chunkContext(f, logger),
      chunkContext: () => deps.chunkContext(feed, logger),
      ...(deps.alerts ? { alerts: deps.alerts } : {}),
      ...(deps.target ? { target: deps.target } : {}),
      ...(deps.cursor ? { cursor: deps.cursor } : {}),
    };
    // Also on the lines of the shared client while this job uses it (log-context.ts).
    return withLogContext(bindings, async () => {
      try {
        let read = data.read;
        if (!read) {
          // A database feed's read: after the position stored now (its range, kept in `read`,
          // travels to the finishing pass, which advances the position to where it ended).
          const replayed = database !== undefined && data.reading === true;
          if (database && !replayed) await job.updateData({ ...job.data, reading: true });
          const reading = database ? await databaseRun(database, feed.name, data, deps, logger) : undefined;
          try {
            const run = reading ? { ...input, database: reading } : input;
            const [file] = (await readRun(run, port, runDeps)).files;
            if (!file) throw new Error(`the import of ${data.file} read no file`);
            await ownChunkOrQueued(port, feed, deps, { logger, bindings });
            read = { ...file.read, accountId: feed.accountId };
          } finally {
            await reading?.database.close();
          }
          if (replayed && read.cursor?.to) {
            logger.warn(
              { cursor: read.cursor.to },
              "a replayed read of a database feed stores no cursor position: the feed's next run reads these rows again",
            );
            read = { ...read, cursor: read.cursor.from ? { from: read.cursor.from } : {} };
          }
          await job.updateData({ ...job.data, read });
        }
        // A first pass that queued no chunk has no children to wait for: it finishes the run now.
        const children = !first || port.queued() > 0;
        if (children && token && (await job.moveToWaitingChildren(token))) throw new WaitingChildrenError();
        // Every chunk has settled: what the run's end asks of the run, read at once.
        const fields = await deps.store.finishing(data.runId);
        port.finishing(fields);
        const { meta } = fields;
        await endRun(
          {
            ...input,
            startedAt: meta ? Date.parse(meta.startedAt) : Date.now(),
            retry: wanted !== undefined,
          },
          { files: [{ path: data.file, file: location ? nameOf(location, data.file) : data.file, read }] },
          port,
          runDeps,
        );
        // The run is over (its summary stored, its position advanced): the feed's next import may start.
        if (database) await deps.registry.releaseFeed(feed.name, data.runId);
        return { records: read.records };
      } catch (error) {
        if (!deps.signal?.aborted) throw error;
        // Another worker reads the file again; chunks already stored are skipped and chunk jobs
        // already queued keep their ids, so nothing is queued or created twice. Awaited: released
        // before the location closes.
        return await releaseToAnotherWorker(job, token, logger, 'import');
      } finally {
        await location?.close();
      }
    });
  };
}

/**
 * The chunk the port held back (the first pass's only chunk, once the file is read): synced here
 * with a free tenant slot (own-chunk.ts), else queued as a child job like any other.
 */
async function ownChunkOrQueued(
  port: FleetRunPort,
  feed: Feed,
  deps: ImportJobDeps,
  own: { logger: Logger; bindings: Record<string, string | number> },
): Promise<void> {
  const chunk = port.takeHeld();
  if (!chunk) return;
  const { gate } = deps;
  const context = deps.chunkContext(feed, own.logger);
  const synced =
    gate !== undefined &&
    context.claims !== undefined &&
    (await syncOwnChunk(
      chunk,
      feed.concurrency,
      {
        gate,
        chunkJob: (id) => deps.chunks.getJob(id),
        client: context.client,
        clock: context.clock,
        store: deps.store,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.meter ? { meter: deps.meter } : {}),
        ...(deps.identity ? { identity: deps.identity } : {}),
      },
      { ...own, claims: context.claims },
    ));
  if (!synced) await port.queue(chunk);
}

/** A database feed's reading pass: its database opened, and the position it reads after. */
async function databaseRun(
  source: DatabaseSourceOf,
  feed: string,
  data: z.output<typeof ImportJobData>,
  deps: ImportJobDeps,
  logger: Logger,
): Promise<DatabaseRun> {
  const after = data.fromStart ? undefined : await deps.cursor?.load(feed);
  if (after) logger.info({ cursor: after }, 'reading after the stored cursor position');
  const open = deps.openDatabase ?? databaseForRun;
  const database = openForRun(open, source, data.file, deps.env ?? process.env);
  return { database, ...(after ? { after } : {}) };
}
