import type { Redis } from 'ioredis';

/**
 * The newest entry of each tenant x feed in one hash (field `<accountId>:<feed>`, value
 * `<score ms> <json>`): the console's overview reads one HGETALL however many runs the retention
 * holds (1,000 tenants x 3 feeds = 3,000 small fields), instead of every run's summary.
 *
 * A Lua function the writers' scripts append to (so the summary and this entry are written in one
 * atomic call): it keeps the entry with the highest score, so a late finish of an older run never
 * hides a newer one, and a replay (the same score) writes the same entry again.
 */
export const PUT_LATEST_LUA = `
local function putLatest(key, field, score, value)
  local old = redis.call('HGET', key, field)
  if old then
    local oldScore = tonumber(string.match(old, '^(%d+) '))
    if oldScore and oldScore > tonumber(score) then return 0 end
  end
  redis.call('HSET', key, field, score .. ' ' .. value)
  return 1
end
`;

export const latestField = (accountId: number, feed: string): string => `${accountId}:${feed}`;

/** A score Redis and Lua agree on: whole milliseconds, never negative (an unparsable date is 0). */
export const latestScore = (iso: string): number => Math.max(0, Math.trunc(Date.parse(iso)) || 0);

/** An entry of a hash of `<score ms> <text>` values; `score` undefined when the value has none. */
export interface ScoredEntry {
  field: string;
  score?: number;
  /** The value after its score (all of it when there is no score). */
  text: string;
}

/**
 * Every entry of a hash of `<score ms> <text>` values not older than `sinceMs`. Entries past it
 * are deleted: what they stood for expired with the retention, and a tenant x feed that stopped
 * running would otherwise stay in the hash.
 */
export async function readScored(redis: Redis, key: string, sinceMs: number): Promise<ScoredEntry[]> {
  const entries: ScoredEntry[] = [];
  const expired: string[] = [];
  for (const [field, stored] of Object.entries(await redis.hgetall(key))) {
    const space = stored.indexOf(' ');
    const score = Number(stored.slice(0, space));
    if (space < 0 || !Number.isFinite(score)) entries.push({ field, text: stored });
    else if (score < sinceMs) expired.push(field);
    else entries.push({ field, score, text: stored.slice(space + 1) });
  }
  if (expired.length > 0) await redis.hdel(key, ...expired);
  return entries;
}

/**
 * Every entry of a latest-of-each hash newer than `sinceMs`, parsed as JSON (a value that is not is
 * passed on as its text: the caller's schema names it damaged).
 */
export async function readLatest(redis: Redis, key: string, sinceMs: number): Promise<unknown[]> {
  return (await readScored(redis, key, sinceMs)).map(({ text }) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  });
}
