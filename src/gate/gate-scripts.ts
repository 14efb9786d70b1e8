import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script run by SHA, loaded on first use (and again after a server restart or SCRIPT FLUSH). */
export class GateScript {
  private readonly sha: string;

  constructor(
    private readonly numberOfKeys: number,
    private readonly lua: string,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<number> {
    if (keys.length !== this.numberOfKeys) throw new Error(`script expects ${this.numberOfKeys} keys`);
    try {
      return Number(await redis.evalsha(this.sha, this.numberOfKeys, ...keys, ...args));
    } catch (error: unknown) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return Number(await redis.eval(this.lua, this.numberOfKeys, ...keys, ...args));
    }
  }
}

/** Redis time in epoch millis: every worker measures lease expiry on the server's clock, not its own. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function keep(key, ttl)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
`;

/**
 * KEYS: slots, queue, queue-ttl, seq. ARGV: leaseId, limit, leaseTtlMs, waiterId ('' = no queueing), waiterTtlMs.
 * Drops expired leases and dead waiters, then grants a slot when fewer than `limit` leases are live and
 * the caller is ahead of the free slots in the queue (a caller without a waiter id counts as behind
 * everyone). A waiter that is not granted is queued at the back (or, if queued, kept alive).
 * Returns 1 when granted, else 0.
 */
export const acquireScript = new GateScript(
  4,
  `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local dead = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, w in ipairs(dead) do redis.call('ZREM', KEYS[2], w) end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local free = tonumber(ARGV[2]) - redis.call('ZCARD', KEYS[1])
local waiter = ARGV[4]
local ahead
if waiter == '' then
  ahead = redis.call('ZCARD', KEYS[2])
else
  ahead = redis.call('ZRANK', KEYS[2], waiter)
  if not ahead then
    ahead = redis.call('ZCARD', KEYS[2])
    if ahead >= free then redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), waiter) end
  end
end
if ahead < free then
  if waiter ~= '' then
    redis.call('ZREM', KEYS[2], waiter)
    redis.call('ZREM', KEYS[3], waiter)
  end
  local ttl = tonumber(ARGV[3])
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
  keep(KEYS[1], ttl)
  return 1
end
if waiter ~= '' then
  local ttl = tonumber(ARGV[5])
  redis.call('ZADD', KEYS[3], now + ttl, waiter)
  keep(KEYS[2], ttl)
  keep(KEYS[3], ttl)
  keep(KEYS[4], ttl)
end
return 0
`,
);

/**
 * KEYS: slots. ARGV: leaseId, leaseTtlMs. Extends a live lease; 0 when it has expired (pruned or not:
 * an expired lease may already count as free for others), so the holder knows it lost the slot.
 */
export const renewScript = new GateScript(
  1,
  `${NOW}
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry or tonumber(expiry) <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[1])
keep(KEYS[1], ttl)
return 1
`,
);

/**
 * KEYS: one zset (slots on release; queue and queue-ttl when a waiter gives up). ARGV: member,
 * channel, tenant. Removes the member and, if it was there, announces that the tenant may have room.
 */
export const leaveScript = new GateScript(
  2,
  `
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
if KEYS[2] ~= KEYS[1] then redis.call('ZREM', KEYS[2], ARGV[1]) end
if removed == 1 then redis.call('PUBLISH', ARGV[2], ARGV[3]) end
return removed
`,
);

/** KEYS: slots. Live leases of the tenant. */
export const busyScript = new GateScript(
  1,
  `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`,
);

/**
 * KEYS: pause. ARGV: pauseMs, untilMs (informational), channel, scope. Pauses only extend: the key is
 * rewritten only when the new pause outlasts its remaining PTTL. Returns 1 when extended.
 */
export const pauseScript = new GateScript(
  1,
  `
local ms = tonumber(ARGV[1])
if ms <= 0 or ms <= redis.call('PTTL', KEYS[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ms)
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`,
);
