import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  delayUntilSlot,
  slotOrWaiter,
  type WaitingJob,
  wakeOneWaiter,
} from '../../../src/fleet/slot-wait.js';
import type { FleetGate, Lease } from '../../../src/gate/gate.js';
import { RedisGate } from '../../../src/gate/redis-gate.js';
import { testRedis } from '../../support/redis.js';

const redis = testRedis();
const gates: RedisGate[] = [];
afterEach(async () => {
  await Promise.all(gates.splice(0).map((gate) => gate.close()));
});
afterAll(() => redis.cleanup());

function makeGate(): RedisGate {
  const gate = new RedisGate({ redis: redis.url, keyPrefix: redis.newPrefix() });
  gates.push(gate);
  return gate;
}

/** A chunk job as BullMQ moves it: promote() refuses a job that is not delayed, as BullMQ does. */
function fakeJob(id: string, onDelayed: () => Promise<void> = async () => {}) {
  const job = {
    state: 'active' as 'active' | 'delayed' | 'waiting',
    id,
    moveToDelayed: async () => {
      job.state = 'delayed';
      await onDelayed();
    },
    promote: async () => {
      if (job.state !== 'delayed') throw new Error(`job ${id} is not delayed`);
      job.state = 'waiting';
    },
  };
  const waiting: WaitingJob = job;
  return { job, waiting };
}

async function held(gate: FleetGate, tenant: string): Promise<Lease> {
  const lease = await gate.tryAcquire(tenant, 1);
  if (!lease) throw new Error('expected a free slot');
  return lease;
}

/** A slot released by another chunk job: the release, then its wake-up of the next waiter. */
async function freeSlot(gate: FleetGate, lease: Lease, jobs: Map<string, WaitingJob>): Promise<void> {
  await lease.release();
  await wakeOneWaiter(gate, 't', async (id) => jobs.get(id));
}

describe('a chunk job waiting for a tenant slot loses no wake-up', () => {
  it('promotes itself when the slot frees while it moves to the delayed set', async () => {
    const gate = makeGate();
    const lease = await held(gate, 't');
    const jobs = new Map<string, WaitingJob>();
    const { job, waiting } = fakeJob('j1', () => freeSlot(gate, lease, jobs));
    jobs.set('j1', waiting);
    expect(await delayUntilSlot(gate, waiting, { tenant: 't', limit: 1 }, 60_000)).toEqual({
      promoted: true,
    });
    expect(job.state).toBe('waiting');
    expect(await gate.busy('t')).toBe(0);
  });

  it('takes the slot that frees between its first try and its registration', async () => {
    const inner = makeGate();
    const lease = await held(inner, 't');
    const jobs = new Map<string, WaitingJob>();
    const gate: FleetGate = {
      tryAcquire: (tenant, limit) => inner.tryAcquire(tenant, limit),
      addWaiter: async (tenant, waiter) => {
        // The holder frees the slot and wakes the waiters just before this job is one of them.
        await freeSlot(inner, lease, jobs);
        await inner.addWaiter(tenant, waiter);
      },
      removeWaiter: (tenant, waiter) => inner.removeWaiter(tenant, waiter),
      popWaiter: (tenant) => inner.popWaiter(tenant),
      pause: (scope, untilMs) => inner.pause(scope, untilMs),
      waitUntilOpen: (scope, signal) => inner.waitUntilOpen(scope, signal),
    };
    const taken = await slotOrWaiter(gate, 'j1', { tenant: 't', limit: 1 });
    expect(taken).toBeDefined();
    expect(await inner.busy('t')).toBe(1);
    await taken?.release();
  });

  it('promotes itself when a waker popped it before it was delayed', async () => {
    const gate = makeGate();
    const lease = await held(gate, 't');
    const jobs = new Map<string, WaitingJob>();
    const { job, waiting } = fakeJob('j1');
    jobs.set('j1', waiting);
    expect(await slotOrWaiter(gate, 'j1', { tenant: 't', limit: 1 })).toBeUndefined();
    // The waker pops the registered job while it is still active: its promote() is refused.
    await freeSlot(gate, lease, jobs);
    expect(job.state).toBe('active');
    expect(await delayUntilSlot(gate, waiting, { tenant: 't', limit: 1 }, 60_000)).toEqual({
      promoted: true,
    });
    expect(job.state).toBe('waiting');
  });

  it('is woken by the holder when the slot frees after its probe found none', async () => {
    const gate = makeGate();
    const lease = await held(gate, 't');
    const jobs = new Map<string, WaitingJob>();
    const { job, waiting } = fakeJob('j1');
    jobs.set('j1', waiting);
    expect(await slotOrWaiter(gate, 'j1', { tenant: 't', limit: 1 })).toBeUndefined();
    expect(await delayUntilSlot(gate, waiting, { tenant: 't', limit: 1 }, 60_000)).toEqual({
      promoted: false,
    });
    expect(job.state).toBe('delayed');
    await freeSlot(gate, lease, jobs);
    expect(job.state).toBe('waiting');
    expect(await gate.popWaiter('t')).toBeUndefined();
  });

  it('wakes waiters in the order they registered, one per freed slot', async () => {
    const gate = makeGate();
    const lease = await held(gate, 't');
    const jobs = new Map<string, WaitingJob>();
    const first = fakeJob('j1');
    const second = fakeJob('j2');
    jobs.set('j1', first.waiting).set('j2', second.waiting);
    for (const [id, waiting] of jobs) {
      expect(await slotOrWaiter(gate, id, { tenant: 't', limit: 1 })).toBeUndefined();
      await delayUntilSlot(gate, waiting, { tenant: 't', limit: 1 }, 60_000);
    }
    await freeSlot(gate, lease, jobs);
    expect([first.job.state, second.job.state]).toEqual(['waiting', 'delayed']);
  });
});
