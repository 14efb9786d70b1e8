import type { Queue } from 'bullmq';
import type { LoadedFeed } from '../config/load-feed.js';
import type { TickJobData } from './queues.js';

const ID_PREFIX = 'feed:';

export interface SchedulerSync {
  upserted: string[];
  removed: string[];
}

/**
 * One BullMQ Job Scheduler per feed file with a `schedule` (cron, in the feed's timezone), whose
 * ticks run the producer for that feed; schedulers of feed files that are gone (or lost their
 * schedule) are removed. Upserts are idempotent, so two schedulers running at once do no harm.
 */
export async function syncSchedulers(
  ticks: Queue<TickJobData>,
  feeds: readonly LoadedFeed[],
): Promise<SchedulerSync> {
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
    if (id.startsWith(ID_PREFIX) && !wanted.has(id)) {
      await ticks.removeJobScheduler(id);
      removed.push(id);
    }
  }
  return { upserted, removed };
}
