import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Lease } from '../../../src/gate/gate.js';
import { RedisGate, type RedisGateOptions } from '../../../src/gate/redis-gate.js';
import type { Clock } from '../../../src/time/clock.js';
import { systemClock } from '../../../src/time/clock.js';
import { gateContract } from '../../support/gate-contract.js';
import { startRestartableRedis, testRedis } from '../../support/redis.js';

const redis = testRedis();
const gates: RedisGate[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((gate) => gate.close()));
});
afterAll(() => redis.cleanup());

/** A gate on the shared Redis; gates made with the same keyPrefix act as processes of one fleet. */
function makeGate(options: Partial<RedisGateOptions> = {}): RedisGate {
  const gate = new RedisGate({ redis: redis.url, keyPrefix: redis.newPrefix(), pollMs: 100, ...options });
  gates.push(gate);
  return gate;
}

/** Two gates with separate connections on one key space: two worker processes. */
function fleet(options: Partial<RedisGateOptions> = {}): [RedisGate, RedisGate] {
  const shared = { keyPrefix: redis.newPrefix(), ...options };
  return [makeGate(shared), makeGate(shared)];
}

/** Resolves once `count` acquire() callers of the tenant are queued (waiting, not just started). */
async function queued(keyPrefix: string, tenant: string, count = 1): Promise<void> {
  const client = redis.connect();
  while ((await client.zcard(`{${keyPrefix}}:gate:queue:${tenant}`)) < count) await sleep(5);
}

describe('RedisGate', () => {
  gateContract(() => makeGate());

  it('never lets two processes together exceed the limit under concurrent hammering', async () => {
    const keyPrefix = redis.newPrefix();
    const [a, b] = fleet({ keyPrefix, pollMs: 50 });
    let inFlight = 0;
    let maxInFlight = 0;
    let done = 0;
    const work = async (gate: RedisGate, i: number) => {
      const lease =
        i % 3 === 0
          ? ((await gate.tryAcquire('t', 2)) ?? (await gate.acquire('t', 2)))
          : await gate.acquire('t', 2);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      expect(await gate.busy('t')).toBeLessThanOrEqual(2);
      await sleep(i % 4);
      inFlight--;
      await lease.release();
      done++;
    };
    await Promise.all(Array.from({ length: 60 }, (_, i) => work(i % 2 ? a : b, i)));
    expect(done).toBe(60);
    expect(maxInFlight).toBe(2);
    expect(await a.busy('t')).toBe(0);
    // Nothing the gate leaves behind outlives its TTL.
    const client = redis.connect();
    for (const key of await client.keys(`{${keyPrefix}}:*`))
      expect(await client.pttl(key)).toBeGreaterThan(0);
  });

  it('takes a connection factory, and a keyPrefix that already holds a hash tag as it is', async () => {
    const name = redis.newPrefix();
    const tagged = makeGate({ keyPrefix: `{${name}}`, redis: () => new Redis(redis.url) });
    const plain = makeGate({ keyPrefix: name });
    await tagged.acquire('t', 1);
    expect(await plain.busy('t')).toBe(1);
    const keys = await redis.connect().keys(`{${name}}:*`);
    expect(keys).toEqual([`{${name}}:gate:slots:t`]);
  });

  it('lets other tenants proceed while one is at its limit', async () => {
    const [a, b] = fleet();
    await a.acquire('full', 1);
    expect(await b.tryAcquire('full', 1)).toBeUndefined();
    expect(await b.tryAcquire('other', 1)).toBeDefined();
  });

  it('frees the slot of a crashed holder when its lease expires', async () => {
    const keyPrefix = redis.newPrefix();
    const crashed = makeGate({ keyPrefix, leaseTtlMs: 300 });
    const survivor = makeGate({ keyPrefix, pollMs: 50 });
    await crashed.acquire('t', 1);
    const acquiredAt = performance.now();
    await crashed.close(); // renewal stops, no release: what a killed worker leaves behind
    expect(await survivor.tryAcquire('t', 1)).toBeUndefined();
    await survivor.acquire('t', 1);
    const heldFor = performance.now() - acquiredAt;
    expect(heldFor).toBeGreaterThan(250);
    expect(heldFor).toBeLessThan(800);
  });

  it('keeps a renewed lease alive past its TTL', async () => {
    const [holder, other] = fleet({ leaseTtlMs: 300 });
    const lease = await holder.acquire('t', 1);
    await sleep(800);
    expect(await other.tryAcquire('t', 1)).toBeUndefined();
    expect(await other.busy('t')).toBe(1);
    await lease.release();
    expect(await other.tryAcquire('t', 1)).toBeDefined();
  });

  it('reports a lease that expired while its holder stalled', async () => {
    const lost: string[] = [];
    const keyPrefix = redis.newPrefix();
    const holder = makeGate({ keyPrefix, leaseTtlMs: 90, onLeaseLost: (t) => lost.push(t) });
    const other = makeGate({ keyPrefix });
    await other.acquire('t', 2); // a live lease keeps the tenant's key, and the expired entry, in Redis
    await holder.acquire('t', 2);
    const started = Date.now();
    while (Date.now() - started < 150) {} // block the event loop: no renewal can run
    await sleep(60); // the overdue renewal runs now, too late: it must not revive the lease
    expect(lost).toEqual(['t']);
    expect(await other.busy('t')).toBe(1);
    expect(await other.tryAcquire('t', 2)).toBeDefined();
  });

  it('wakes a waiter in another process as soon as a slot is released', async () => {
    const keyPrefix = redis.newPrefix();
    const holder = makeGate({ keyPrefix });
    const waiter = makeGate({ keyPrefix, pollMs: 5_000 }); // the fallback poll would take 5 s
    const lease = await holder.acquire('t', 1);
    const waiting = waiter.acquire('t', 1);
    await queued(keyPrefix, 't');
    const start = performance.now();
    await lease.release();
    await waiting;
    expect(performance.now() - start).toBeLessThan(200);
  });

  it('tells onSlotFreed listeners in every process which tenant freed a slot', async () => {
    const [a, b] = fleet();
    const freed: string[] = [];
    const unsubscribe = b.onSlotFreed((tenant) => freed.push(tenant));
    await b.ready();
    const lease = await a.acquire('t', 1);
    await lease.release();
    await lease.release();
    await sleep(50);
    expect(freed).toEqual(['t']);
    unsubscribe();
    await (await a.acquire('t', 1)).release();
    await sleep(50);
    expect(freed).toEqual(['t']);
  });

  it('lets a dead waiter drop out of the queue so those behind it are served', async () => {
    const keyPrefix = redis.newPrefix();
    const dead = makeGate({ keyPrefix, pollMs: 50 }); // waiter TTL 250 ms
    const live = makeGate({ keyPrefix, pollMs: 50 });
    const lease = await live.acquire('t', 1);
    const abandoned = dead.acquire('t', 1);
    await queued(keyPrefix, 't');
    const rejected = expect(abandoned).rejects.toThrow('closed');
    await dead.close(); // leaves its queue entry behind, like a killed process
    await rejected;
    await lease.release();
    expect(await live.tryAcquire('t', 1)).toBeUndefined(); // the dead waiter is still first
    const start = performance.now();
    await live.acquire('t', 1);
    expect(performance.now() - start).toBeLessThan(600); // the dead waiter's TTL is 250 ms
  });

  it('rejects a waiting acquire when its signal aborts, and one already aborted at once', async () => {
    const [a, b] = fleet();
    const held = await a.acquire('t', 1);
    const abort = new AbortController();
    const waiting = b.acquire('t', 1, abort.signal);
    await sleep(30);
    abort.abort(new Error('shutdown'));
    await expect(waiting).rejects.toThrow('shutdown');
    await expect(b.acquire('t', 2, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    await held.release();
    expect(await b.busy('t')).toBe(0);
    expect(await b.tryAcquire('t', 1)).toBeDefined();
  });

  it('pauses a scope fleet-wide: no process opens it before the pause elapses', async () => {
    const [a, b] = fleet();
    const paused: string[] = [];
    b.onPaused((scope) => paused.push(scope));
    await b.ready();
    const until = Date.now() + 400;
    await a.pause('partner', until);
    expect(await b.pausedFor('partner')).toBeGreaterThan(300);
    await b.waitUntilOpen('partner');
    expect(Date.now()).toBeGreaterThanOrEqual(until - 5);
    expect(Date.now()).toBeLessThan(until + 250);
    expect(paused).toEqual(['partner']);
    expect(await b.pausedFor('partner')).toBe(0);
  });

  it('only extends a pause, whichever process sets it', async () => {
    const [a, b] = fleet();
    await a.pause('partner', Date.now() + 600);
    await b.pause('partner', Date.now() + 100);
    expect(await a.pausedFor('partner')).toBeGreaterThan(500);
    await b.pause('partner', Date.now() + 1_500);
    expect(await a.pausedFor('partner')).toBeGreaterThan(1_400);
    await a.pause('partner', Date.now() - 1_000);
    expect(await b.pausedFor('partner')).toBeGreaterThan(1_400);
  });

  it('re-checks an extended pause instead of opening when the first one would have ended', async () => {
    const [a, b] = fleet();
    const start = Date.now();
    await a.pause('partner', start + 150);
    setTimeout(() => void a.pause('partner', start + 400), 50);
    await b.waitUntilOpen('partner');
    expect(Date.now() - start).toBeGreaterThanOrEqual(395);
  });

  it('measures a pause by its length, not by the skewed clock of the process that set it', async () => {
    const skewed: Clock = { now: () => Date.now() + 3_600_000, sleep: systemClock.sleep };
    const keyPrefix = redis.newPrefix();
    const fast = makeGate({ keyPrefix, clock: skewed });
    const other = makeGate({ keyPrefix });
    await fast.pause('partner', skewed.now() + 300);
    const remaining = await other.pausedFor('partner');
    expect(remaining).toBeGreaterThan(200);
    expect(remaining).toBeLessThanOrEqual(300);
  });
});

describe('RedisGate across a Redis restart', () => {
  it('keeps leases and pauses, and works on after reconnecting', async () => {
    const server = await startRestartableRedis();
    const gate = new RedisGate({ redis: server.url, keyPrefix: 'restart', pollMs: 50 });
    try {
      const leases: Lease[] = [await gate.acquire('t', 2), await gate.acquire('t', 2)];
      await gate.pause('partner', Date.now() + 5_000);
      await server.restart();
      expect(await gate.busy('t')).toBe(2);
      expect(await gate.pausedFor('partner')).toBeGreaterThan(3_000);
      expect(await gate.tryAcquire('t', 2)).toBeUndefined();
      await leases[0]?.release();
      expect(await gate.busy('t')).toBe(1);
      expect(await gate.tryAcquire('t', 2)).toBeDefined();
    } finally {
      await gate.close();
      await server.stop();
    }
  });
});
