import { ApiError } from '../client/index.js';
import type { Feed } from '../config/feed.js';
import type { Chunk } from './chunk.js';
import type { ChunkSettings } from './chunk-settings.js';
import type { SyncClient } from './ports.js';
import type { Prediction } from './predict.js';
import { writeSettings } from './prepare-settings.js';
import type { StopReason } from './run-handle.js';
import { stopFor } from './stop.js';

/** The stop of a feed whose accountExternalId names no account of the partner. */
const ACCOUNT_NOT_FOUND = 'ACCOUNT_NOT_FOUND';

/** A feed whose account is known (its `accountExternalId` resolved), or why its run stops. */
export type FeedAccount<F extends Feed> = { feed: F; stop?: undefined } | { feed: F; stop: StopReason };

/**
 * The feed with its `accountExternalId` resolved to the account's id (`accountId`), listing the
 * partner's accounts once: the API finds an account only by listing them. Done where a run starts
 * (runFeed, the fleet's import job), never per chunk, so every chunk of the run has the same
 * account even if the list changes meanwhile. A feed with a numeric accountId is returned as it is.
 * An unknown externalId, or a service that refuses the listing for good, stops the run: nothing of
 * it is sent and the next run looks again (an accounts feed may provision it meanwhile).
 */
export async function resolveFeedAccount<F extends Feed>(
  feed: F,
  client: SyncClient,
  signal?: AbortSignal,
): Promise<FeedAccount<F>> {
  const named = feed.accountExternalId;
  if (named === undefined) return { feed };
  let accounts: Awaited<ReturnType<SyncClient['listAccounts']>>;
  try {
    accounts = await client.listAccounts(signal ? { signal } : {});
  } catch (error) {
    const stop = stopFor(error);
    if (stop) return { feed, stop: { code: stop.code, message: stop.message, exitCode: stop.exitCode } };
    // Retried per the spec's rules already: the run cannot know its account, so it sends nothing.
    if (error instanceof ApiError)
      return {
        feed,
        stop: {
          code: error.code,
          exitCode: 1,
          message: `feed ${feed.name}: could not list the partner's accounts to find accountExternalId "${named}": ${error.message}; nothing was sent, run it again`,
        },
      };
    throw error;
  }
  const account = accounts.find((a) => a.externalId === named);
  if (account === undefined)
    return {
      feed,
      stop: {
        code: ACCOUNT_NOT_FOUND,
        exitCode: 2,
        message: `feed ${feed.name}: accountExternalId "${named}" names no customer account of the partner (${accounts.length} listed); provision it with an accounts feed (erp-bridge sync runs accounts feeds first) or correct the key; nothing was sent`,
      },
    };
  return { feed: { ...feed, accountId: account.id } };
}

/**
 * A dry run whose account does not exist yet: the accounts feed of the same sync creates it only
 * for real, so its dry run cannot stop here. Nothing of the account can be read: no kind prepares
 * (no target bank account is looked for) and every record would be sent; the warning says why.
 */
export function unprovisionedDryRun(
  dryRun: boolean,
  account: FeedAccount<Feed>,
):
  | {
      prepare(feed: Feed): Promise<ChunkSettings>;
      predict(chunk: Chunk): Promise<Prediction>;
      warning: string;
    }
  | undefined {
  if (!dryRun || account.stop?.code !== ACCOUNT_NOT_FOUND) return undefined;
  return {
    prepare: (feed) => Promise.resolve(writeSettings(feed)),
    predict: (chunk) => Promise.resolve({ skipped: [], send: [...chunk.records] }),
    warning: `dry run: ${account.stop.message.replace(/; nothing was sent$/, '')}; every record would be sent to it once it exists`,
  };
}
