import { RedisScript } from './redis-script.js';

/** Redis time in epoch millis: every worker measures lease expiry on the server's clock, not its own. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function keep(key, ttl)
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
`;

/**
 * KEYS: slots. ARGV: leaseId, limit, leaseTtlMs. Drops expired leases, then grants a slot when
 * fewer than `limit` leases are live. Returns 1 when granted, else 0.
 */
export const acquireScript = new RedisScript(
  1,
  `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
local ttl = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
keep(KEYS[1], ttl)
return 1
`,
);

/**
 * KEYS: slots. ARGV: leaseId, leaseTtlMs. Extends a live lease; 0 when it has expired (pruned or not:
 * an expired lease may already count as free for others), so the holder knows it lost the slot.
 */
export const renewScript = new RedisScript(
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

/** KEYS: slots. Live leases of the tenant. */
export const busyScript = new RedisScript(
  1,
  `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`,
);

/**
 * KEYS: pause. ARGV: pauseMs, untilMs (informational). Pauses only extend: the key is rewritten
 * only when the new pause outlasts its remaining PTTL. Returns 1 when extended.
 */
export const pauseScript = new RedisScript(
  1,
  `
local ms = tonumber(ARGV[1])
if ms <= 0 or ms <= redis.call('PTTL', KEYS[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ms)
return 1
`,
);
