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
  const gate = new RedisGate({ redis: redis.url, keyPrefix: redis.newPrefix(), ...options });
  gates.push(gate);
  return gate;
}

/** Two gates with separate connections on one key space: two worker processes. */
function fleet(options: Partial<RedisGateOptions> = {}): [RedisGate, RedisGate] {
  const shared = { keyPrefix: redis.newPrefix(), ...options };
  return [makeGate(shared), makeGate(shared)];
}

/** A slot of the tenant, trying every few ms until one is free (the fleet waits in BullMQ instead). */
async function slot(gate: RedisGate, tenant: string, limit: number): Promise<Lease> {
  for (;;) {
    const lease = await gate.tryAcquire(tenant, limit);
    if (lease) return lease;
    await sleep(5);
  }
}

describe('RedisGate', () => {
  gateContract(() => makeGate());

  it('never lets two processes together exceed the limit under concurrent hammering', async () => {
    const keyPrefix = redis.newPrefix();
    const [a, b] = fleet({ keyPrefix });
    let inFlight = 0;
    let maxInFlight = 0;
    let done = 0;
    const work = async (gate: RedisGate, i: number) => {
      const lease = await slot(gate, 't', 2);
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
    await slot(tagged, 't', 1);
    expect(await plain.busy('t')).toBe(1);
    const keys = await redis.connect().keys(`{${name}}:*`);
    expect(keys).toEqual([`{${name}}:gate:slots:t`]);
  });

  it('lets other tenants proceed while one is at its limit', async () => {
    const [a, b] = fleet();
    await slot(a, 'full', 1);
    expect(await b.tryAcquire('full', 1)).toBeUndefined();
    expect(await b.tryAcquire('other', 1)).toBeDefined();
  });

  it('frees the slot of a crashed holder when its lease expires', async () => {
    const keyPrefix = redis.newPrefix();
    const crashed = makeGate({ keyPrefix, leaseTtlMs: 300 });
    const survivor = makeGate({ keyPrefix });
    await slot(crashed, 't', 1);
    const acquiredAt = performance.now();
    await crashed.close(); // renewal stops, no release: what a killed worker leaves behind
    expect(await survivor.tryAcquire('t', 1)).toBeUndefined();
    await slot(survivor, 't', 1);
    const heldFor = performance.now() - acquiredAt;
    expect(heldFor).toBeGreaterThan(250);
    expect(heldFor).toBeLessThan(800);
  });

  it('keeps a renewed lease alive past its TTL', async () => {
    const [holder, other] = fleet({ leaseTtlMs: 300 });
    const lease = await slot(holder, 't', 1);
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
    await slot(other, 't', 2); // a live lease keeps the tenant's key, and the expired entry, in Redis
    await slot(holder, 't', 2);
    const started = Date.now();
    while (Date.now() - started < 150) {} // block the event loop: no renewal can run
    // The overdue renewal runs now, too late: it must not revive the lease. Its answer takes a
    // round trip to Redis, longer on a loaded machine: wait for it (bounded) rather than a fixed time.
    for (const deadline = Date.now() + 2000; lost.length === 0 && Date.now() < deadline; ) await sleep(10);
    expect(lost).toEqual(['t']);
    expect(await other.busy('t')).toBe(1);
    expect(await other.tryAcquire('t', 2)).toBeDefined();
  });

  it('keeps a waiter list per tenant, shared by the fleet: oldest registration first', async () => {
    const [a, b] = fleet();
    await a.addWaiter('t', 'job-1');
    await b.addWaiter('t', 'job-2');
    await a.addWaiter('other', 'job-9');
    await b.addWaiter('t', 'job-3');
    await a.removeWaiter('t', 'job-2');
    expect(await b.popWaiter('t')).toBe('job-1');
    expect(await a.popWaiter('t')).toBe('job-3');
    expect(await a.popWaiter('t')).toBeUndefined();
    expect(await b.popWaiter('other')).toBe('job-9');
  });

  it('moves a waiter that registers again to the back of the list', async () => {
    const gate = makeGate();
    await gate.addWaiter('t', 'job-1');
    await sleep(2);
    await gate.addWaiter('t', 'job-2');
    await sleep(2);
    await gate.addWaiter('t', 'job-1');
    expect(await gate.popWaiter('t')).toBe('job-2');
    expect(await gate.popWaiter('t')).toBe('job-1');
  });

  it('pauses a scope fleet-wide: no process opens it before the pause elapses', async () => {
    const [a, b] = fleet();
    const until = Date.now() + 400;
    await a.pause('partner', until);
    expect(await b.pausedFor('partner')).toBeGreaterThan(300);
    await b.waitUntilOpen('partner');
    expect(Date.now()).toBeGreaterThanOrEqual(until - 5);
    expect(Date.now()).toBeLessThan(until + 250);
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
    const gate = new RedisGate({ redis: server.url, keyPrefix: 'restart' });
    try {
      const leases: Lease[] = [await slot(gate, 't', 2), await slot(gate, 't', 2)];
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
