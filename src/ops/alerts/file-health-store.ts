import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import * as z from 'zod';
import { readIfWritten, writeFileAtomic } from '../../report-files/atomic-file.js';
import {
  alertsOf,
  type FeedHealthStore,
  type HealthSnapshot,
  type HealthUpdate,
  MemoryFeedHealthStore,
  type PreviousHealth,
} from './health-store.js';

const Snapshot = z.record(
  z.string(),
  z.object({
    failing: z.string(),
    dropped: z.boolean(),
    stale: z.boolean().optional(),
    recent: z.array(z.object({ runId: z.string(), records: z.int().nonnegative() })),
  }),
);

/**
 * Every feed's open alerts in words as the health file holds them now (the console reads it on
 * each page: `erp-bridge sync` may be writing it). No file: none; a file that is not a health file:
 * an error naming it (a console must not show "no alerts" for a state it cannot read).
 */
export async function readOpenAlerts(path: string): Promise<Map<string, string[]>> {
  const text = await readIfWritten(path);
  if (text === undefined) return new Map();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON (truncated or edited?): the feeds' open alerts cannot be read`);
  }
  const parsed = Snapshot.safeParse(json);
  if (!parsed.success)
    throw new Error(`${path} is not a feed health file: the feeds' open alerts cannot be read`);
  return alertsOf(Object.entries(parsed.data));
}

/**
 * The feeds' states in one JSON file (`<report-dir>/.feed-health.json` for `erp-bridge sync`), so
 * consecutive syncs also notify only on a change. Updates within the process are serialised; two
 * syncs writing the same report folder at the same moment may lose one update (the next run
 * corrects the state), which is why the fleet keeps its states in Redis instead.
 */
export class FileFeedHealthStore implements FeedHealthStore {
  #memory: Promise<MemoryFeedHealthStore> | undefined;
  #snapshot: HealthSnapshot = {};
  #last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly logger: Logger,
  ) {}

  async recentRecords(feed: string): Promise<number[]> {
    return (await this.#load()).recentRecords(feed);
  }

  update(feed: string, update: HealthUpdate): Promise<PreviousHealth> {
    return this.#serial((memory) => memory.update(feed, update));
  }

  updateStale(feed: string, stale: boolean): Promise<boolean> {
    return this.#serial((memory) => memory.updateStale(feed, stale));
  }

  /** One change of the state after the other, each saved before the next. */
  #serial<T>(change: (memory: MemoryFeedHealthStore) => Promise<T>): Promise<T> {
    const next = this.#last.then(async () => {
      const previous = await change(await this.#load());
      await this.#save();
      return previous;
    });
    this.#last = next.catch(() => undefined);
    return next;
  }

  #load(): Promise<MemoryFeedHealthStore> {
    this.#memory ??= this.#read().then((snapshot) => {
      this.#snapshot = snapshot;
      return new MemoryFeedHealthStore(snapshot);
    });
    return this.#memory;
  }

  async #read(): Promise<HealthSnapshot> {
    const text = await readIfWritten(this.path);
    if (text === undefined) return {};
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = Snapshot.safeParse(json);
    if (parsed.success) return parsed.data;
    // Only notices are at stake: start afresh rather than fail the sync.
    this.logger.warn({ file: this.path }, 'feed health file unreadable; starting with every feed healthy');
    return {};
  }

  async #save(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    // Written aside and renamed: a crash mid-write never leaves half a file behind.
    await writeFileAtomic(this.path, `${JSON.stringify(this.#snapshot, null, 2)}\n`);
  }
}
