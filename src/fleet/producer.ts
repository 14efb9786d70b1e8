import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { ConfigError } from '../config/errors.js';
import type { LoadedFeed } from '../config/load-feed.js';
import { expandGlob } from '../sources/glob.js';
import { newRunId } from '../sync/run-id.js';
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
}

export interface EnqueueOptions {
  /** Only this file (an operator's on-demand import); it must match the feed's `source.path` glob. */
  file?: string;
  /** Import even a file whose version was imported before (a new run; syncing is idempotent). */
  reimport?: boolean;
  dryRun?: boolean;
  /** The runs go on although the feed's identity settings changed (docs/identity.md). */
  acceptNewIdentity?: boolean;
}

export type EnqueueResult =
  | { file: string; sha256: string; runId: string; enqueued: 'new' | 'retry' | 'reimport' }
  | { file: string; sha256: string; runId: string; enqueued: false; reason: string };

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

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
  const { feed } = loaded;
  // Before anything is claimed: a feed outside the feed directory could not be run by a worker.
  const ref = feedRef(deps.feedsDir, loaded.file);
  if (options.file !== undefined) checkExportOf(loaded, options.file, ConfigError);
  // A symlinked export that loops or points nowhere is left out: said, as in-process sync does.
  const files = options.file
    ? [resolve(options.file)]
    : await expandGlob(loaded.sourceGlob, (p) =>
        deps.logger.warn(
          { feed: feed.name, glob: loaded.sourceGlob, path: p.path },
          `export file left out: ${p.problem}`,
        ),
      );
  if (files.length === 0)
    deps.logger.warn({ feed: feed.name, glob: loaded.sourceGlob }, 'no export file matches');
  const results: EnqueueResult[] = [];
  for (const file of files) {
    const sha256 = await sha256Of(file);
    const claim = await deps.registry.claim(
      feed.name,
      file,
      sha256,
      newRunId(feed.name, deps.now()),
      options.reimport === true,
    );
    if (claim.kind === 'seen' && !(await lostRun(claim.runId, deps))) {
      results.push({ file, sha256, runId: claim.runId, enqueued: false, reason: 'already imported' });
      continue;
    }
    await deps.store.create({
      runId: claim.runId,
      feed: feed.name,
      kind: feed.kind,
      accountId: feed.accountId,
      file,
      sha256,
      dryRun: options.dryRun === true,
      startedAt: new Date(deps.now()).toISOString(),
      ...(claim.kind === 'retry' ? { retryOf: claim.retryOf } : {}),
    });
    const data: ImportJobData = {
      runId: claim.runId,
      feed: ref,
      file,
      dryRun: options.dryRun === true,
      ...(options.acceptNewIdentity ? { acceptNewIdentity: true } : {}),
      ...(claim.kind === 'retry' ? { onlyLines: claim.lines, retryRun: claim.retryRun } : {}),
    };
    // The run id is the job id: a producer that crashes and runs again cannot add the run twice.
    await deps.imports.add('import-file', data, { jobId: claim.runId });
    const enqueued = claim.kind === 'retry' ? 'retry' : options.reimport ? 'reimport' : 'new';
    // (A 'seen' claim only gets here when its run was lost; it is enqueued again as new.)
    deps.logger.info({ feed: feed.name, file, runId: claim.runId, enqueued }, 'import run enqueued');
    results.push({ file, sha256, runId: claim.runId, enqueued });
  }
  return results;
}

/**
 * A claimed run whose job never reached the queue (the producer died between claim and add): no
 * summary and no import job. It is enqueued again under the same run id.
 */
async function lostRun(runId: string, deps: ProducerDeps): Promise<boolean> {
  if (await deps.store.summary(runId)) return false;
  return (await deps.imports.getJob(runId)) === undefined;
}
