import type { Redis } from 'ioredis';
import type { FleetKeys } from '../../fleet/keys.js';
import { RECENT_RUNS } from './feed-health.js';
import {
  alertsOf,
  type FeedHealthStore,
  type HealthUpdate,
  type PreviousHealth,
  parseKinds,
} from './health-store.js';
import { kindsKey } from './transitions.js';

// One script, so the swap is atomic: of two workers finishing runs of a feed at the same moment,
// exactly one reads the old state and raises the alert; the other reads the new one.
// A count whose entry (records and run id) is already at the head is not added again (a replay).
const UPDATE = `
local prevFailing = redis.call('HGET', KEYS[1], 'failing:' .. ARGV[1]) or ''
local prevDropped = redis.call('HGET', KEYS[1], 'dropped:' .. ARGV[1]) or '0'
redis.call('HSET', KEYS[1], 'failing:' .. ARGV[1], ARGV[2])
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'dropped:' .. ARGV[1], ARGV[4])
  if redis.call('LINDEX', KEYS[2], 0) ~= ARGV[5] then
    redis.call('LPUSH', KEYS[2], ARGV[5])
    redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[6]) - 1)
  end
end
return {prevFailing, prevDropped}
`;

// The swap of a feed's stale flag, atomic for the same reason: one scheduler replica alerts.
const UPDATE_STALE = `
local prev = redis.call('HGET', KEYS[1], 'stale:' .. ARGV[1]) or '0'
redis.call('HSET', KEYS[1], 'stale:' .. ARGV[1], ARGV[2])
return prev
`;

/** The fleet's feed states, shared by every worker, under the fleet's key prefix. */
export class RedisFeedHealthStore implements FeedHealthStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
  ) {}

  async recentRecords(feed: string): Promise<number[]> {
    const entries = await this.redis.lrange(this.keys.feedRecords(feed), 0, RECENT_RUNS - 1);
    return entries.map((entry) => Number.parseInt(entry, 10)).filter(Number.isFinite);
  }

  /** Every feed with a recorded state, and whether it is failing (the metrics' scrape). */
  async failing(): Promise<Map<string, boolean>> {
    const failing = new Map<string, boolean>();
    for (const [field, kinds] of Object.entries(await this.redis.hgetall(this.keys.feedHealth())))
      if (field.startsWith('failing:'))
        failing.set(field.slice('failing:'.length), parseKinds(kinds).length > 0);
    return failing;
  }

  /**
   * Each feed's open alerts in words (its failing states, a record-count drop, staleness): the
   * console's overview. Feeds without one are absent.
   */
  async openAlerts(): Promise<Map<string, string[]>> {
    const entries = new Map<string, { failing: string; dropped: boolean; stale: boolean }>();
    const entry = (feed: string) => {
      const found = entries.get(feed) ?? { failing: '', dropped: false, stale: false };
      entries.set(feed, found);
      return found;
    };
    for (const [field, value] of Object.entries(await this.redis.hgetall(this.keys.feedHealth()))) {
      const colon = field.indexOf(':');
      const [flag, feed] = [field.slice(0, colon), field.slice(colon + 1)];
      if (flag === 'failing') entry(feed).failing = value;
      else if (flag === 'dropped') entry(feed).dropped = value === '1';
      else if (flag === 'stale') entry(feed).stale = value === '1';
    }
    return alertsOf(entries);
  }

  async update(feed: string, update: HealthUpdate): Promise<PreviousHealth> {
    const [failing, dropped] = (await this.redis.eval(
      UPDATE,
      2,
      this.keys.feedHealth(),
      this.keys.feedRecords(feed),
      feed,
      kindsKey(update.failing),
      update.volume ? '1' : '0',
      update.volume?.dropped ? '1' : '0',
      update.volume ? `${update.volume.records} ${update.runId}` : '',
      RECENT_RUNS,
    )) as [string, string];
    return { failing: parseKinds(failing), dropped: dropped === '1' };
  }

  async updateStale(feed: string, stale: boolean): Promise<boolean> {
    const previous = await this.redis.eval(UPDATE_STALE, 1, this.keys.feedHealth(), feed, stale ? '1' : '0');
    return previous === '1';
  }
}
