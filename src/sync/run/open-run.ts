import type { Logger } from 'pino';
import type { Feed } from '../../config/feed.js';
import type { Chunk } from '../chunk.js';
import type { ChunkSettings } from '../chunk-settings.js';
import { type FeedAccount, resolveFeedAccount, unprovisionedDryRun } from '../feed-account.js';
import { checkIdentity, type IdentityStore } from '../identity/check.js';
import type { OpenRecords } from '../identity/held-under-old.js';
import { identitySettings } from '../identity/settings.js';
import type { ChunkContext, SyncClient } from '../ports.js';
import { type Prediction, predictChunk } from '../predict.js';
import { prepareSettings } from '../prepare-settings.js';
import type { StopReason } from '../run-handle.js';
import { type Listed, noExport } from './list-run.js';
import type { OpenPort } from './run-port.js';

/**
 * The feed's account for a run: its `accountExternalId` resolved (listing the partner's accounts
 * once), or the id a runner kept from an earlier pass of the same run (`known`: the fleet's
 * finishing pass), so that every part of the run names one account. Apart from `openRun` because
 * a runner names its run (logs, run store) by this account before opening it.
 */
export function runAccount(
  feed: Feed,
  client: SyncClient,
  signal?: AbortSignal,
  known?: number,
): Promise<FeedAccount<Feed>> {
  if (known !== undefined) return Promise.resolve({ feed: { ...feed, accountId: known } });
  return resolveFeedAccount(feed, client, signal);
}

export interface OpenInput {
  account: FeedAccount<Feed>;
  dryRun: boolean;
  /** The run's export files (as the runner's location takes them), read by the identity check. */
  files: readonly string[];
  open: OpenRecords;
  /**
   * What the runner listed for the run (sync lists the feed's glob; a fleet job names its file):
   * a listing with no export stops the run or, where the feed allows it, is said and kept.
   */
  listed?: Listed;
  /** The feeds' identity settings and `--accept-new-identity`; absent: no check. */
  identity?: { store: IdentityStore; accept: boolean };
}

export interface OpenDeps {
  logger: Logger;
  /** The tenant's context for a feed's chunk settings (a target bank account looked up or created). */
  context(feed: Feed): ChunkContext;
  /** The context a dry run's prediction of `chunk` reads the service with. */
  chunkContext(chunk: Chunk): ChunkContext;
}

/**
 * The run once open. A stopped run still reads its files (every record is then reported failed
 * with the stop's reason, importFile), so the prepare and predict steps come with a stop too.
 */
export interface OpenedRun {
  /** Chunk settings as this run resolves them (read-only for a dry run). */
  prepare(feed: Feed): Promise<ChunkSettings>;
  /** A dry run's prediction of a chunk: what the service already holds. */
  predict(chunk: Chunk): Promise<Prediction>;
  /** Why the run stopped before anything was sent (also stored through the port). */
  stop?: StopReason;
  /** No export, and the feed allows that: the message for the summary. */
  noFile?: string;
}

/**
 * Opens a run, in one order for every runner: an account that cannot be found stops it (unless a
 * dry run goes on without it, unprovisionedDryRun), then no export at all, then a change of the
 * feed's identity settings (checked before anything is sent, even the target bank account: it
 * would create the run's records again under new IDs). A run that passes and may write stores the
 * settings it was checked under before its first write. A run already stopped (a location that
 * refused its listing, a replayed import) is neither checked nor set to store them.
 */
export async function openRun(input: OpenInput, port: OpenPort, deps: OpenDeps): Promise<OpenedRun> {
  const { account, dryRun, identity } = input;
  const { feed } = account;
  const { logger } = deps;
  const unprovisioned = unprovisionedDryRun(dryRun, account);
  if (unprovisioned) logger.warn(unprovisioned.warning);
  const prepareAs = (f: Feed, readOnly: boolean) =>
    unprovisioned?.prepare(f) ?? prepareSettings(f, readOnly, deps.context(f));
  // Dry runs read what the service holds, so the prediction skips what a real run would skip.
  const predict = (chunk: Chunk) =>
    unprovisioned?.predict(chunk) ??
    predictChunk(chunk.kind, chunk.records, chunk.settings, deps.chunkContext(chunk));
  const opened = { prepare: (f: Feed) => prepareAs(f, dryRun), predict };

  const { listed } = input;
  const noFile = listed && !(await port.run.stopReason()) ? await noExport(listed, feed, logger) : {};
  const stop =
    (unprovisioned ? undefined : account.stop) ??
    noFile.stop ??
    (identity && !(await port.run.stopReason())
      ? await checkIdentity(feed, identity.store, {
          accept: identity.accept,
          files: input.files,
          open: input.open,
          reads: { prepare: (f) => prepareAs(f, true), predict },
          logger,
        })
      : undefined);
  const result = { ...opened, ...(noFile.allowed ? { noFile: noFile.allowed } : {}) };
  if (stop) {
    logger.error({ code: stop.code }, `run stopped: ${stop.message}`);
    await port.run.stop(stop);
    return { ...result, stop };
  }
  if (identity && !dryRun && !(await port.run.stopReason())) await port.expectWrites(identitySettings(feed));
  return result;
}
