import { describe, expect, it } from 'vitest';
import type { Lease } from '../../../src/gate/gate.js';
import { MemoryGate } from '../../../src/gate/memory-gate.js';
import type { Clock } from '../../../src/time/clock.js';
import { gateContract } from '../../support/gate-contract.js';

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
  gateContract(() => new MemoryGate());

  it('sleeps exactly until the longest pause ends, on its clock', async () => {
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

/** Waiting for a slot: the in-process runner's way (the fleet's chunks wait in BullMQ instead). */
describe('MemoryGate.acquire', () => {
  const makeGate = () => new MemoryGate();

  it('admits at most `limit` leases per tenant and hands freed slots over in arrival order', async () => {
    const gate = await makeGate();
    const a = await gate.acquire('t1', 2);
    await gate.acquire('t1', 2);
    expect(await gate.tryAcquire('t1', 2)).toBeUndefined();
    const order: number[] = [];
    const waitFor = (n: number) =>
      gate.acquire('t1', 2).then((lease) => {
        order.push(n);
        return lease;
      });
    const third = waitFor(3);
    const fourth = waitFor(4);
    expect(await gate.busy('t1')).toBe(2);
    await a.release();
    const thirdLease = await third;
    expect(order).toEqual([3]);
    expect(await gate.busy('t1')).toBe(2);
    await thirdLease.release();
    await fourth;
    expect(order).toEqual([3, 4]);
  });

  it('gives a freed slot to the waiter, not to a later tryAcquire', async () => {
    const gate = await makeGate();
    const held = await gate.acquire('t', 1);
    const waiting = gate.acquire('t', 1);
    expect(await gate.busy('t')).toBe(1); // a round trip: the waiter has queued
    await held.release();
    expect(await gate.tryAcquire('t', 1)).toBeUndefined();
    await (await waiting).release();
    expect(await gate.tryAcquire('t', 1)).toBeDefined();
  });

  it('drops an aborted waiter without taking a slot or blocking those behind it', async () => {
    const gate = await makeGate();
    const held = await gate.acquire('t', 1);
    const abort = new AbortController();
    const waiting = gate.acquire('t', 1, abort.signal);
    const behind = gate.acquire('t', 1);
    expect(await gate.busy('t')).toBe(1); // a round trip: both have queued
    abort.abort(new Error('shutdown'));
    await expect(waiting).rejects.toThrow('shutdown');
    await held.release();
    const next: Lease = await behind;
    expect(await gate.busy('t')).toBe(1);
    await next.release();
    expect(await gate.busy('t')).toBe(0);
    expect(await gate.tryAcquire('t', 1)).toBeDefined();
  });

  it('grants no slot to a caller already aborted, even a free one', async () => {
    const gate = await makeGate();
    const abort = new AbortController();
    abort.abort(new Error('gone'));
    await expect(gate.acquire('t', 2, abort.signal)).rejects.toThrow('gone');
    expect(await gate.busy('t')).toBe(0);
  });
});
