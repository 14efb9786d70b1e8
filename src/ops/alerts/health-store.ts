import {
  alertWords,
  DROP_KIND,
  FAILING_KINDS,
  type FailingKind,
  kindOfState,
  RECENT_RUNS,
  STALE_KIND,
} from './feed-health.js';
import { kindsKey } from './transitions.js';

/** What a finished run sets in its feed's state. */
export interface HealthUpdate {
  runId: string;
  /** The failing states (failingState: kind, or kind:cause). */
  failing: readonly string[];
  /**
   * Counted runs only: whether the drop rule fired, and the run's record count for the next
   * runs' median. Retry runs (only the failed lines of a file) leave both alone.
   */
  volume?: { dropped: boolean; records: number };
}

/** The feed's state before the update. */
export interface PreviousHealth {
  /** The failing states it had (failingState). */
  failing: string[];
  dropped: boolean;
}

/**
 * Each feed's last state and its recent record counts. `update` swaps the state atomically and
 * returns the one it replaced, so of two processes finishing runs of a feed at once only one sees
 * the change (and raises its alert). A run seen twice (a replayed job) adds its count once.
 */
export interface FeedHealthStore {
  /** Record counts of the feed's latest counted runs, newest first (at most RECENT_RUNS). */
  recentRecords(feed: string): Promise<number[]>;
  update(feed: string, update: HealthUpdate): Promise<PreviousHealth>;
  /** Sets whether the feed is stale (source.expectEvery); returns whether it was. */
  updateStale(feed: string, stale: boolean): Promise<boolean>;
}

export const isFailingKind = (kind: string): kind is FailingKind =>
  (FAILING_KINDS as readonly string[]).includes(kind);

/** The failing states of a stored key (those of unknown kinds, e.g. of a newer version, are dropped). */
export const parseKinds = (key: string): string[] =>
  key.split(',').filter((state) => isFailingKind(kindOfState(state)));

/**
 * A feed's open alerts in words (its failing states, a record-count drop, staleness), as the
 * console shows them; empty when it has none. Both stores keep these three, each its own way.
 */
export function openAlertWords(entry: { failing: string; dropped: boolean; stale?: boolean }): string[] {
  return [
    ...parseKinds(entry.failing).map(alertWords),
    ...(entry.dropped ? [alertWords(DROP_KIND)] : []),
    ...(entry.stale ? [alertWords(STALE_KIND)] : []),
  ];
}

/** Every feed's open alerts in words; feeds without one are absent. */
export function alertsOf(
  entries: Iterable<[string, { failing: string; dropped: boolean; stale?: boolean }]>,
): Map<string, string[]> {
  const alerts = new Map<string, string[]>();
  for (const [feed, entry] of entries) {
    const words = openAlertWords(entry);
    if (words.length > 0) alerts.set(feed, words);
  }
  return alerts;
}

interface FeedEntry {
  failing: string;
  dropped: boolean;
  stale?: boolean;
  recent: { runId: string; records: number }[];
}

/** The state as plain data, so the file store can save and load it. */
export type HealthSnapshot = Record<string, FeedEntry>;

/** In memory, for one process (`erp-bridge sync` via the file store, and tests). */
export class MemoryFeedHealthStore implements FeedHealthStore {
  constructor(protected readonly feeds: HealthSnapshot = {}) {}

  async recentRecords(feed: string): Promise<number[]> {
    return (this.feeds[feed]?.recent ?? []).map((r) => r.records);
  }

  async update(feed: string, update: HealthUpdate): Promise<PreviousHealth> {
    const entry = this.feeds[feed] ?? { failing: '', dropped: false, recent: [] };
    const previous = { failing: parseKinds(entry.failing), dropped: entry.dropped };
    entry.failing = kindsKey(update.failing);
    if (update.volume) {
      entry.dropped = update.volume.dropped;
      if (entry.recent[0]?.runId !== update.runId)
        entry.recent = [{ runId: update.runId, records: update.volume.records }, ...entry.recent].slice(
          0,
          RECENT_RUNS,
        );
    }
    this.feeds[feed] = entry;
    return previous;
  }

  async updateStale(feed: string, stale: boolean): Promise<boolean> {
    const entry = this.feeds[feed] ?? { failing: '', dropped: false, recent: [] };
    const previous = entry.stale === true;
    entry.stale = stale;
    this.feeds[feed] = entry;
    return previous;
  }
}
