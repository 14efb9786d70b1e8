import { resolve } from 'node:path';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { ConfigError } from '../config/errors.js';
import type { LoadedFeed } from '../config/load-feed.js';
import { fileSourceOf, isDatabaseSource } from '../sources/formats/registry.js';
import { type ArrivalMemory, listArrived, type WaitingFile } from '../sources/locations/arrival.js';
import { exportFile, nameOf, sha256Of } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import { explainNoFile, type NoFile } from '../sources/locations/no-file.js';
import { arrivalOf, expectEveryOf, isRemote } from '../sources/locations/source-keys.js';
import { withFeedLocation } from '../sync/run/feed-location.js';
import { newRunId, runIdTime } from '../sync/run-id.js';
import { systemClock } from '../time/clock.js';
import { checkExportOf, feedRef } from './feed-ref.js';
import type { FileRegistry } from './file-registry.js';
import type { ImportJobData } from './import-job.js';
import type { RedisRunStore } from './run-store.js';

export interface ProducerDeps {
  /** The fleet's feed directory: jobs name their feed relative to it (feed-ref.ts). */
  feedsDir: string;
  registry: FileRegistry;
  store: RedisRunStore;
  imports: Queue<ImportJobData>;
  logger: Logger;
  now(): number;
  /** Where a remote location's secrets are read (the variables the feed names); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The scheduler's watch: what its earlier polls saw, so a `stable` feed is not listed twice per poll. */
  arrivals?: ArrivalMemory;
  /** Waits between the two listings of a `stable` feed (tests: a fake clock); default real time. */
  sleep?(ms: number): Promise<void>;
}

export interface EnqueueOptions {
  /** Only this file (an operator's on-demand import); it must match the feed's `source.path` glob. */
  file?: string;
  /** Import even a file whose version was imported before (a new run; syncing is idempotent). */
  reimport?: boolean;
  dryRun?: boolean;
  /** The runs go on although the feed's identity settings changed (docs/identity.md). */
  acceptNewIdentity?: boolean;
  /**
   * `reconcile --repair --fleet`: only these exports (named as reports name them), each as a new
   * run of only these lines (what the reconcile found missing or different); the others are left.
   */
  repair?: ReadonlyMap<string, readonly number[]>;
  /** The reconcile whose findings `repair` holds, noted on the runs (`runs` names it). */
  repairOf?: string;
  /**
   * Hears each listed export that has not arrived yet, named as reports name it (not enqueued; a
   * later tick or poll takes it).
   */
  onWaiting?(file: WaitingFile): void;
  /**
   * Hears a listing that found no export at all (none arrived, none waiting): why, and whether it
   * stops (a folder that does not exist; a glob matching nothing without source.allowNoFiles).
   */
  onNoFile?(noFile: NoFile): void;
}

export type EnqueueResult =
  | { file: string; sha256: string; runId: string; enqueued: 'new' | 'retry' | 'reimport' | 'repair' }
  | { file: string; sha256: string; runId: string; enqueued: false; reason: string };

/**
 * The producer: fingerprints each export file of a feed and enqueues one import run per new or
 * changed file (or, after transient failures, a run of the failed lines only). A file already
 * imported at the same sha256 is not imported again unless `reimport`.
 */
export async function enqueueFeed(
  loaded: LoadedFeed,
  options: EnqueueOptions,
  deps: ProducerDeps,
): Promise<EnqueueResult[]> {
  // Before anything is claimed: a feed outside the feed directory could not be run by a worker.
  const ref = feedRef(deps.feedsDir, loaded.file);
  if (options.file !== undefined) checkExportOf(loaded, options.file, ConfigError);
  if (isDatabaseSource(loaded.feed.source)) return [await enqueueDatabase(loaded, ref, options, deps)];
  return withFeedLocation(loaded, deps.env ?? process.env, deps.logger, (location) =>
    enqueueFrom(location, loaded, ref, options, deps),
  );
}

async function enqueueFrom(
  location: Location,
  loaded: LoadedFeed,
  ref: string,
  options: EnqueueOptions,
  deps: ProducerDeps,
): Promise<EnqueueResult[]> {
  const { feed } = loaded;
  const files = options.file
    ? // An operator's --file is taken as arrived: they named it.
      [isRemote(feed.source.location) ? options.file : resolve(options.file)]
    : await arrivedFiles(location, loaded, options, deps);
  const results: EnqueueResult[] = [];
  for (const file of files) {
    // The fingerprint is the content's, read through the location (no local copy of a remote file).
    const exported = exportFile(location, file);
    const sha256 = await sha256Of(exported);
    // Runs and results name the file as reports do; the job carries the path its location reads.
    const name = exported.name;
    const repair = options.repair?.get(name);
    if (options.repair && !repair) continue;
    // A repair is a new run of the file whatever was imported before (as a reimport).
    const reimport = options.reimport === true || repair !== undefined;
    const claim = await deps.registry.claim(
      feed.name,
      file,
      sha256,
      newRunId(feed.name, deps.now()),
      reimport,
    );
    if (claim.kind === 'seen' && !(await lostRun(claim.runId, deps))) {
      results.push({ file: name, sha256, runId: claim.runId, enqueued: false, reason: 'already imported' });
      continue;
    }
    await deps.store.create({
      runId: claim.runId,
      feed: feed.name,
      kind: feed.kind,
      accountId: feed.accountId,
      file: name,
      sha256,
      dryRun: options.dryRun === true,
      startedAt: new Date(deps.now()).toISOString(),
      ...(claim.kind === 'retry' ? { retryOf: claim.retryOf } : {}),
      ...(repair && options.repairOf ? { repairOf: options.repairOf } : {}),
    });
    const data: ImportJobData = {
      runId: claim.runId,
      feed: ref,
      file,
      dryRun: options.dryRun === true,
      ...(options.acceptNewIdentity ? { acceptNewIdentity: true } : {}),
      ...(claim.kind === 'retry' ? { onlyLines: claim.lines, retryRun: claim.retryRun } : {}),
      ...(repair ? { onlyLines: [...repair] } : {}),
    };
    // The run id is the job id: a producer that crashes and runs again cannot add the run twice.
    await deps.imports.add('import-file', data, { jobId: claim.runId });
    const enqueued = claim.kind === 'retry' ? 'retry' : repair ? 'repair' : reimport ? 'reimport' : 'new';
    // (A 'seen' claim only gets here when its run was lost; it is enqueued again as new.)
    deps.logger.info({ feed: feed.name, file: name, runId: claim.runId, enqueued }, 'import run enqueued');
    results.push({ file: name, sha256, runId: claim.runId, enqueued });
  }
  // Freshness (source.expectEvery): a listing that showed a file version never imported before.
  const expectEvery = expectEveryOf(feed.source);
  if (expectEvery !== undefined)
    await deps.registry.expectFiles(
      feed.name,
      feed.accountId,
      expectEvery,
      deps.now(),
      results.some((r) => r.enqueued === 'new'),
    );
  return results;
}

/** Why a database feed's tick enqueued nothing: its import runs (a reimport waits for it too). */
export const FEED_BUSY = 'an import of the feed is running';

/**
 * A database feed's import (issue 29): one run reading its table or query after the feed's cursor
 * position, from whichever worker takes it; at most one at a time per feed (FileRegistry.claimFeed),
 * so a tick while one runs enqueues nothing. Nothing is fingerprinted here: what the run reads is
 * known once it read (its summary's sha256 is the read's, database-run.ts).
 */
async function enqueueDatabase(
  loaded: LoadedFeed,
  ref: string,
  options: EnqueueOptions,
  deps: ProducerDeps,
): Promise<EnqueueResult> {
  const { feed } = loaded;
  const label = loaded.sourceGlob;
  const runId = newRunId(feed.name, deps.now());
  let held = await deps.registry.claimFeed(feed.name, runId);
  // The run holding the feed finished (its release lost with its worker) or was lost: taken over.
  if (held !== runId && ((await deps.store.summary(held)) !== undefined || (await lostRun(held, deps))))
    held = await deps.registry.claimFeed(feed.name, runId, held);
  if (held !== runId) {
    deps.logger.info(
      { feed: feed.name, runId: held },
      'an import of the database feed is running: none enqueued',
    );
    return {
      file: label,
      sha256: '',
      runId: held,
      enqueued: false,
      reason: FEED_BUSY,
    };
  }
  await deps.store.create({
    runId,
    feed: feed.name,
    kind: feed.kind,
    accountId: feed.accountId,
    file: label,
    sha256: '',
    dryRun: options.dryRun === true,
    startedAt: new Date(deps.now()).toISOString(),
    ...(options.repair && options.repairOf ? { repairOf: options.repairOf } : {}),
  });
  const data: ImportJobData = {
    runId,
    feed: ref,
    file: label,
    dryRun: options.dryRun === true,
    ...(options.acceptNewIdentity ? { acceptNewIdentity: true } : {}),
    // A repair reads every row again: a database read's lines are only its ordinals, so the
    // lines a reconcile found name no row of another read; what the service holds is skipped.
    ...(options.reimport || options.repair ? { fromStart: true } : {}),
  };
  await deps.imports.add('import-file', data, { jobId: runId });
  const enqueued = options.repair ? 'repair' : options.reimport ? 'reimport' : 'new';
  deps.logger.info({ feed: feed.name, file: label, runId, enqueued }, 'import run enqueued');
  return { file: label, sha256: '', runId, enqueued };
}

/** The feed's exports that have arrived (source.arrival); the others are said and left for later. */
async function arrivedFiles(
  location: Location,
  loaded: LoadedFeed,
  options: EnqueueOptions,
  deps: ProducerDeps,
): Promise<string[]> {
  const { feed } = loaded;
  const listing = await listArrived(location, loaded.sourceGlob, arrivalOf(feed.source), {
    clock: { now: deps.now, sleep: deps.sleep ?? ((ms) => systemClock.sleep(ms)) },
    ...(deps.arrivals ? { memory: deps.arrivals } : {}),
  });
  for (const waiting of listing.waiting) {
    const named = { path: nameOf(location, waiting.path), reason: waiting.reason };
    deps.logger.info({ feed: feed.name, file: named.path }, `export file waits: ${named.reason}`);
    options.onWaiting?.(named);
  }
  if (listing.ready.length === 0 && listing.waiting.length === 0) {
    const noFile = await explainNoFile(
      location,
      loaded.sourceGlob,
      fileSourceOf(feed.source).allowNoFiles === true,
    );
    const level = noFile.stop === 'SOURCE_FOLDER_MISSING' ? 'error' : noFile.stop ? 'warn' : 'info';
    deps.logger[level](
      { feed: feed.name, glob: loaded.sourceGlob, code: noFile.stop || undefined },
      noFile.message,
    );
    options.onNoFile?.(noFile);
  }
  return listing.ready.map((f) => f.path);
}

/**
 * How long a claim may go without its import job before it counts as lost: a producer (or a
 * second scheduler replica) that sees the claim while its owner is between claim and add must not
 * add the run itself.
 */
const LOST_AFTER_MS = 30_000;

/**
 * A claimed run whose job never reached the queue (the producer died between claim and add): no
 * summary and no import job, well after it was claimed. It is enqueued again under the same run id.
 */
async function lostRun(runId: string, deps: ProducerDeps): Promise<boolean> {
  if (await deps.store.summary(runId)) return false;
  if ((await deps.imports.getJob(runId)) !== undefined) return false;
  const meta = await deps.store.meta(runId);
  const claimedAt = meta ? Date.parse(meta.startedAt) : runIdTime(runId);
  return claimedAt === undefined || deps.now() - claimedAt > LOST_AFTER_MS;
}
