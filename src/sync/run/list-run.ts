import type { Logger } from 'pino';
import type { Feed } from '../../config/feed.js';
import { fileSourceOf } from '../../sources/formats/registry.js';
import { type ArrivedListing, listArrived } from '../../sources/locations/arrival.js';
import { nameOf } from '../../sources/locations/export-file.js';
import type { Location } from '../../sources/locations/location.js';
import { noFileRule } from '../../sources/locations/no-file.js';
import { arrivalOf } from '../../sources/locations/source-keys.js';
import type { Clock } from '../../time/clock.js';
import type { StopReason } from '../run-handle.js';
import { stopFor } from '../stop.js';

/** What a runner listed for a run: the location, the feed's glob, the exports that have arrived. */
export interface Listed {
  location: Location;
  glob: string;
  listing: ArrivedListing;
}

/**
 * The exports of a feed's glob that have arrived (a `stable` feed lists twice, stableAfterSeconds
 * apart). A location that refuses (a host key, a login, a secret not set) gives a stop, as
 * `stopOf` reads the error, and an empty listing; an error `stopOf` does not know is thrown.
 * Sync's and reconcile's listing (the fleet's producer lists, its jobs name a file).
 */
export async function listExports(
  location: Location,
  glob: string,
  feed: Feed,
  clock: Clock,
  stopOf: (error: unknown) => StopReason | undefined,
): Promise<{ listed: Listed; stop?: StopReason }> {
  try {
    return {
      listed: {
        location,
        glob,
        listing: await listArrived(location, glob, arrivalOf(feed.source), { clock }),
      },
    };
  } catch (error) {
    const stop = stopOf(error);
    if (!stop) throw error;
    return { listed: { location, glob, listing: { ready: [], waiting: [] } }, stop };
  }
}

/**
 * A sync run's listing: a location that refuses stops this feed's run, reported like any stop (the
 * other feeds of the command go on); each export that has not arrived yet is said and kept for
 * the summary.
 */
export async function listRun(
  location: Location,
  glob: string,
  feed: Feed,
  deps: { clock: Clock; logger: Logger; stop(reason: StopReason): Promise<void> },
): Promise<{ listed: Listed; waiting: { path: string; reason: string }[] }> {
  const { logger } = deps;
  const { listed, stop } = await listExports(location, glob, feed, deps.clock, (error) => {
    const stop = stopFor(error);
    return stop && { code: stop.code, message: stop.message, exitCode: stop.exitCode };
  });
  if (stop) {
    logger.error({ code: stop.code }, `run stopped: ${stop.message}`);
    await deps.stop(stop);
  }
  const waiting = listed.listing.waiting.map((w) => ({ path: nameOf(location, w.path), reason: w.reason }));
  for (const w of waiting) logger.info({ file: w.path }, `export file waits: ${w.reason}`);
  return { listed, waiting };
}

/**
 * No export at all is no success: a folder that is not there, or a glob that matches nothing
 * (unless the feed says that is normal, said here), stops the run before anything is sent. Sync's
 * and reconcile's rule (the fleet's producer lists, its jobs name a file).
 */
export async function noExport(listed: Listed, feed: Feed, logger: Logger): ReturnType<typeof noFileRule> {
  const noFile = await noFileRule(listed.location, listed.glob, listed.listing, fileSourceOf(feed.source));
  if (noFile.allowed) logger.info({ glob: listed.glob }, noFile.allowed);
  return noFile;
}
