import type { Redis } from 'ioredis';
import * as z from 'zod';
import { RedisScript } from '../gate/redis-script.js';
import type { FleetKeys } from './keys.js';

// The scripts run by their SHA (RedisScript): a claim per run and a retry note per finished run
// need not send their text each time.

/**
 * Which version (sha256) of each export file has been imported, per feed, and which lines of it
 * still wait for a retry after transient failures. Claims are atomic (Lua), so two producers or
 * two schedulers seeing the same new file start one run, not two.
 */
export type Claim =
  | { kind: 'new'; runId: string }
  | { kind: 'retry'; runId: string; lines: number[]; retryRun: number; retryOf: string }
  | { kind: 'seen'; runId: string };

// Fields per file: sha256, runId, and while a retry is owed: retryLines (JSON), retryRuns.
const CLAIM = new RedisScript(
  1,
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur then
  local c = cjson.decode(cur)
  if c.sha256 == ARGV[2] and ARGV[3] ~= '1' then
    if c.retryLines and c.retryLines ~= '' then
      local n = (tonumber(c.retryRuns) or 0) + 1
      local lines = c.retryLines
      local previous = c.runId
      redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({sha256 = ARGV[2], runId = ARGV[4], retryRuns = n}))
      return {'retry', ARGV[4], lines, n, previous}
    end
    return {'seen', c.runId}
  end
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({sha256 = ARGV[2], runId = ARGV[4], retryRuns = 0}))
return {'new', ARGV[4]}
`,
);

// Records the lines a finished run leaves failed, unless a newer run of the file took over.
const OWE_RETRY = new RedisScript(
  1,
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local c = cjson.decode(cur)
if c.runId ~= ARGV[2] then return 0 end
c.retryLines = ARGV[3]
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(c))
return 1
`,
);

/**
 * What the fleet knows of a feed with `source.expectEvery`: since when it watches the feed (the
 * first listing or scheduler pass that knew the key), when a listing last showed a new export (a
 * file version never imported before), and how often one is expected.
 */
const Ms = z.number().int().nonnegative();
export const FeedFreshness = z.object({
  feed: z.string(),
  accountId: z.int(),
  since: Ms,
  lastNewAt: Ms.optional(),
  expectEveryMs: Ms,
});
export type FeedFreshness = z.output<typeof FeedFreshness>;

// A feed's freshness entry: `since` set once, `lastNewAt` only ever moves forward (two producers
// noting at once keep the later time).
const NOTE_FRESHNESS = new RedisScript(
  1,
  `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
local c = cur and cjson.decode(cur) or {since = tonumber(ARGV[2])}
if ARGV[5] == '1' and (c.lastNewAt == nil or c.lastNewAt < tonumber(ARGV[2])) then
  c.lastNewAt = tonumber(ARGV[2])
end
c.expectEveryMs = tonumber(ARGV[3])
c.accountId = tonumber(ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(c))
return 1
`,
);

// A database feed's import: taken when free, or from `ARGV[2]` when that run is over or lost.
const CLAIM_FEED = new RedisScript(
  1,
  `
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[2] then return cur end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`,
);

// Frees a database feed's import, unless another run took it over meanwhile.
const RELEASE_FEED = new RedisScript(
  1,
  `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`,
);

export class FileRegistry {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
  ) {}

  /** Claims `file` at `sha256` for a new run `runId`, unless this version was imported already. */
  async claim(feed: string, file: string, sha256: string, runId: string, reimport: boolean): Promise<Claim> {
    const reply = (await CLAIM.call(
      this.redis,
      [this.keys.files(feed)],
      [file, sha256, reimport ? '1' : '0', runId],
    )) as [string, string, string?, number?, string?];
    const [kind, id, lines, retryRun, retryOf] = reply;
    if (kind === 'retry')
      return {
        kind,
        runId: id,
        lines: JSON.parse(lines ?? '[]') as number[],
        retryRun: Number(retryRun),
        retryOf: String(retryOf),
      };
    return kind === 'new' ? { kind, runId: id } : { kind: 'seen', runId: id };
  }

  /**
   * A database feed (issue 29) has no file version to claim: its import reads after the feed's
   * cursor position and advances it at its finish, so two at once would read the same rows and
   * race to store the position. The feed itself is claimed for run `runId`, one import at a time;
   * the run holding it is returned. `over`: the run the caller found over (its summary stored) or
   * lost, taken over atomically (a third caller that saw the same stays out).
   */
  async claimFeed(feed: string, runId: string, over?: string): Promise<string> {
    return String(await CLAIM_FEED.call(this.redis, [this.keys.feedImport(feed)], [runId, over ?? '']));
  }

  /** The finish of run `runId` frees its database feed for the next import. */
  async releaseFeed(feed: string, runId: string): Promise<void> {
    await RELEASE_FEED.call(this.redis, [this.keys.feedImport(feed)], [runId]);
  }

  /**
   * Notes that `feed` (with source.expectEvery) is watched from `now` on, unless it was before;
   * with `newFile`, that a listing at `now` showed an export never imported before.
   */
  async expectFiles(feed: string, accountId: number, expectEveryMs: number, now: number, newFile = false) {
    await NOTE_FRESHNESS.call(
      this.redis,
      [this.keys.freshness()],
      [feed, String(now), String(expectEveryMs), String(accountId), newFile ? '1' : '0'],
    );
  }

  /** Every feed the fleet judges for freshness, by name. */
  async freshness(): Promise<FeedFreshness[]> {
    const entries = await this.redis.hgetall(this.keys.freshness());
    return Object.entries(entries)
      .map(([feed, json]) => ({ feed, ...(JSON.parse(json) as Omit<FeedFreshness, 'feed'>) }))
      .sort((a, b) => (a.feed < b.feed ? -1 : a.feed > b.feed ? 1 : 0));
  }

  async forgetFreshness(feed: string): Promise<void> {
    await this.redis.hdel(this.keys.freshness(), feed);
  }

  /**
   * After run `runId` of `file`: the lines to retry on the next tick, or none. `retryRuns` is how
   * many retry runs already happened; at `maxRetryRuns` the lines stay failed (dead letter).
   */
  async oweRetry(
    feed: string,
    file: string,
    runId: string,
    lines: readonly number[],
    retryRuns: number,
    maxRetryRuns: number,
  ): Promise<boolean> {
    const owed = lines.length > 0 && retryRuns < maxRetryRuns ? JSON.stringify(lines) : '';
    await OWE_RETRY.call(this.redis, [this.keys.files(feed)], [file, runId, owed]);
    return owed !== '';
  }
}
