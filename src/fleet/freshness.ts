import type { LoadedFeed } from '../config/load-feed.js';
import { expectEveryOf } from '../sources/locations/source-keys.js';
import type { FreshnessAlerts, FreshnessVerdictInput } from '../sync/alerts.js';
import type { FeedFreshness, FileRegistry } from './file-registry.js';

export interface FreshnessVerdict extends FreshnessVerdictInput {
  /** When the feed last showed a new export; absent when it never did since it is watched. */
  lastNewAt?: number;
  expectEveryMs: number;
  /** The verdict's figures in a few words, for a table cell ("last new export 3 h ago; every 1 h"). */
  brief: string;
}

/** A span in hours (one decimal), or in minutes under an hour: "0 h ago" said nothing. */
const hours = (ms: number) =>
  ms < 3_600_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round((ms / 3_600_000) * 10) / 10} h`;

/**
 * Stale when no new export was seen for longer than `expectEvery` (counted from the start of the
 * watch when none ever was), as dbt's source freshness judges a source by its newest row.
 */
export function judgeFreshness(entry: FeedFreshness, now: number): FreshnessVerdict {
  const from = entry.lastNewAt ?? entry.since;
  const age = now - from;
  const stale = age > entry.expectEveryMs;
  const seen =
    entry.lastNewAt === undefined
      ? `no new export file since the fleet began watching it at ${new Date(entry.since).toISOString()} (${hours(age)})`
      : `last new export file seen at ${new Date(entry.lastNewAt).toISOString()} (${hours(age)} ago)`;
  return {
    feed: entry.feed,
    accountId: entry.accountId,
    stale,
    ...(entry.lastNewAt !== undefined ? { lastNewAt: entry.lastNewAt } : {}),
    expectEveryMs: entry.expectEveryMs,
    brief: `${entry.lastNewAt === undefined ? `no new export in ${hours(age)} of watching` : `last new export ${hours(age)} ago`}; every ${hours(entry.expectEveryMs)} expected`,
    message: stale
      ? `feed ${entry.feed} is stale: ${seen}, expected every ${hours(entry.expectEveryMs)}; check that the ERP still exports and that source.path still matches its files`
      : `feed ${entry.feed} is fresh: ${seen}, expected every ${hours(entry.expectEveryMs)}`,
  };
}

/**
 * The scheduler's freshness pass over the feed folder: starts the clock of feeds that gained
 * `expectEvery`, forgets those that lost it (or are gone), and tells the alerts each verdict (they
 * notify only on a change, like every other feed alert).
 */
export async function checkFreshness(
  feeds: readonly LoadedFeed[],
  registry: FileRegistry,
  alerts: FreshnessAlerts,
  now: number,
  someUnreadable = false,
): Promise<FreshnessVerdict[]> {
  const byName = new Map(feeds.map((l) => [l.feed.name, l.feed]));
  for (const feed of byName.values()) {
    const every = expectEveryOf(feed.source);
    if (every !== undefined) await registry.expectFiles(feed.name, feed.accountId, every, now);
  }
  const verdicts: FreshnessVerdict[] = [];
  for (const entry of await registry.freshness()) {
    const feed = byName.get(entry.feed);
    if (!feed || expectEveryOf(feed.source) === undefined) {
      // Gone or without the key: forgotten, unless a feed file could not be read this time (it
      // may be that feed's: it keeps its clock, as it keeps its schedule).
      if (feed !== undefined || !someUnreadable) await registry.forgetFreshness(entry.feed);
      continue;
    }
    const verdict = judgeFreshness(entry, now);
    await alerts.freshness(verdict);
    verdicts.push(verdict);
  }
  return verdicts;
}
