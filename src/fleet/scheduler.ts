import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { ConfigError } from '../config/errors.js';
import { type LoadedFeed, loadFeedFile } from '../config/load-feed.js';
import type { TickJobData } from './queues.js';

const ID_PREFIX = 'feed:';

export interface SchedulerSync {
  upserted: string[];
  removed: string[];
}

/** The feed files directly in `dir` (not its subfolders: config/feeds/demo is not scheduled). */
async function feedFilesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => resolve(join(dir, e.name)))
    .sort();
}

/**
 * One scheduler pass over a folder of feed files. A broken feed file is reported (an alert) and
 * keeps the scheduler it had, so a typo neither unschedules that feed nor holds back the changes
 * of the other files; `broken` lists such files, `feeds` the ones read (for the watch).
 */
export async function schedulerPass(
  ticks: Queue<TickJobData>,
  dir: string,
  logger: Logger,
): Promise<SchedulerSync & { broken: string[]; feeds: LoadedFeed[] }> {
  const feeds: LoadedFeed[] = [];
  const broken: string[] = [];
  for (const file of await feedFilesIn(dir)) {
    try {
      feeds.push(await loadFeedFile(file));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      logger.error({ alert: true, file }, `${error.message} (its schedule, if any, stays as it was)`);
      broken.push(file);
    }
  }
  return { ...(await syncSchedulers(ticks, feeds, broken)), broken, feeds };
}

/**
 * One BullMQ Job Scheduler per feed file with a `schedule` (cron, in the feed's timezone), whose
 * ticks run the producer for that feed; schedulers of feed files that are gone (or lost their
 * schedule) are removed, except those of `keep` (feed files that could not be read this time).
 * Upserts are idempotent, so two schedulers running at once do no harm.
 */
export async function syncSchedulers(
  ticks: Queue<TickJobData>,
  feeds: readonly LoadedFeed[],
  keep: readonly string[] = [],
): Promise<SchedulerSync> {
  const kept = new Set(keep.map((file) => `${ID_PREFIX}${file}`));
  const wanted = new Map<string, LoadedFeed>();
  for (const loaded of feeds) if (loaded.feed.schedule) wanted.set(`${ID_PREFIX}${loaded.file}`, loaded);
  const upserted: string[] = [];
  for (const [id, loaded] of wanted) {
    await ticks.upsertJobScheduler(
      id,
      { pattern: loaded.feed.schedule, tz: loaded.feed.timezone },
      { name: 'tick', data: { feedFile: loaded.file } },
    );
    upserted.push(id);
  }
  const removed: string[] = [];
  for (const existing of await ticks.getJobSchedulers(0, -1)) {
    const id = existing.key;
    if (id.startsWith(ID_PREFIX) && !wanted.has(id) && !kept.has(id)) {
      await ticks.removeJobScheduler(id);
      removed.push(id);
    }
  }
  return { upserted, removed };
}
