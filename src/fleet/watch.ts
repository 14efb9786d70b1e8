import type { Logger } from 'pino';
import type { LoadedFeed } from '../config/load-feed.js';
import { ArrivalMemory } from '../sources/locations/arrival.js';
import { type EnqueueResult, enqueueFeed, type ProducerDeps } from './producer.js';

interface Watched {
  loaded: LoadedFeed;
  everyMs: number;
  /** What this scheduler's earlier polls saw (a `stable` feed's files arrive across polls). */
  arrivals: ArrivalMemory;
  timer?: NodeJS.Timeout;
  polling?: Promise<unknown>;
}

/**
 * The scheduler's watch (`watch: { everySeconds }`): polls each watching feed's location and
 * enqueues the files that have arrived. Several scheduler replicas may watch one feed: the
 * producer's claim of a file version is atomic in Redis (file-registry.ts), so whichever replica
 * sees a file first starts its one run and the others find it claimed.
 */
export class FeedWatch {
  private readonly watched = new Map<string, Watched>();
  private closed = false;

  constructor(
    private readonly deps: Omit<ProducerDeps, 'arrivals'>,
    private readonly logger: Logger,
  ) {}

  /**
   * Follows the feed folder: starts new watches, restarts changed ones, stops those gone, except
   * the watches of `keep` (feed files that could not be read this time keep what they had).
   */
  update(feeds: readonly LoadedFeed[], keep: readonly string[] = []): void {
    const wanted = new Map(feeds.filter((l) => l.feed.watch).map((l) => [l.file, l]));
    for (const [file, w] of this.watched)
      if (!wanted.has(file) && !keep.includes(file)) {
        clearTimeout(w.timer);
        this.watched.delete(file);
      }
    for (const [file, loaded] of wanted) {
      const everyMs = (loaded.feed.watch?.everySeconds ?? 0) * 1000;
      const current = this.watched.get(file);
      if (current && current.everyMs === everyMs) {
        current.loaded = loaded; // the feed's other keys may have changed
        continue;
      }
      if (current) clearTimeout(current.timer);
      const w: Watched = { loaded, everyMs, arrivals: current?.arrivals ?? new ArrivalMemory() };
      this.watched.set(file, w);
      this.schedule(w, 0);
    }
  }

  /** One poll of a feed with its memory (the timers call it; tests call it directly). */
  poll(file: string): Promise<EnqueueResult[]> {
    const w = this.watched.get(file);
    if (!w) return Promise.resolve([]);
    return enqueueFeed(w.loaded, {}, { ...this.deps, arrivals: w.arrivals });
  }

  /** Stops polling; resolves once polls under way have ended. */
  async close(): Promise<void> {
    this.closed = true;
    const polls = [...this.watched.values()].map((w) => {
      clearTimeout(w.timer);
      return w.polling;
    });
    this.watched.clear();
    await Promise.all(polls);
  }

  /** The next poll `delayMs` from now; a poll never overlaps the one before. */
  private schedule(w: Watched, delayMs: number): void {
    if (this.closed) return;
    w.timer = setTimeout(() => {
      w.polling = this.poll(w.loaded.file)
        .then((results) => {
          const enqueued = results.filter((r) => r.enqueued !== false).length;
          if (enqueued > 0)
            this.logger.info({ feed: w.loaded.feed.name, enqueued }, 'watch enqueued new files');
        })
        .catch((error: unknown) =>
          this.logger.error(
            { err: error, feed: w.loaded.feed.name },
            'watch poll failed; trying again next time',
          ),
        )
        .finally(() => {
          if (this.watched.get(w.loaded.file) === w) this.schedule(w, w.everyMs);
        });
    }, delayMs);
    w.timer.unref?.();
  }
}
