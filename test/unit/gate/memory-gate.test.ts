import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/client/clock.js';
import { MemoryGate } from '../../../src/gate/memory-gate.js';

function fakeClock(start = 1_000) {
  let now = start;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps };
}

describe('MemoryGate', () => {
  it('admits at most `limit` leases per tenant and hands freed slots over in arrival order', async () => {
    const gate = new MemoryGate();
    const a = await gate.acquire('t1', 2);
    await gate.acquire('t1', 2);
    expect(await gate.tryAcquire('t1', 2)).toBeUndefined();
    const order: number[] = [];
    const third = gate.acquire('t1', 2).then((l) => {
      order.push(3);
      return l;
    });
    const fourth = gate.acquire('t1', 2).then((l) => {
      order.push(4);
      return l;
    });
    expect(gate.busy('t1')).toBe(2);
    await a.release();
    await third;
    expect(order).toEqual([3]);
    expect(gate.busy('t1')).toBe(2);
    await (await third).release();
    await fourth;
    expect(order).toEqual([3, 4]);
  });

  it('keeps tenants independent', async () => {
    const gate = new MemoryGate();
    await gate.acquire('t1', 1);
    expect(await gate.tryAcquire('t2', 1)).toBeDefined();
    expect(await gate.tryAcquire('t1', 1)).toBeUndefined();
  });

  it('releases a lease only once', async () => {
    const gate = new MemoryGate();
    const lease = await gate.acquire('t', 1);
    await lease.release();
    await lease.release();
    expect(gate.busy('t')).toBe(0);
  });

  it('drops an aborted waiter without taking a slot', async () => {
    const gate = new MemoryGate();
    const held = await gate.acquire('t', 1);
    const abort = new AbortController();
    const waiting = gate.acquire('t', 1, abort.signal);
    abort.abort(new Error('shutdown'));
    await expect(waiting).rejects.toThrow('shutdown');
    await held.release();
    expect(gate.busy('t')).toBe(0);
  });

  it('holds a paused scope closed until the pause ends, and pauses only extend', async () => {
    const { clock, sleeps } = fakeClock();
    const gate = new MemoryGate(clock);
    await gate.pause('partner', 4_000);
    await gate.pause('partner', 2_000);
    await gate.waitUntilOpen('partner');
    expect(sleeps).toEqual([3_000]);
    await gate.waitUntilOpen('other');
    expect(sleeps).toEqual([3_000]);
  });
});
