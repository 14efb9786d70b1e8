import { expect, it } from 'vitest';
import type { Lease, TenantGate } from '../../src/gate/gate.js';

/** A gate under test: the port plus the slot count every implementation offers for metrics. */
export type ContractGate = TenantGate & { busy(tenant: string): number | Promise<number> };

/**
 * The behaviour every TenantGate shares, in real time (pauses of a few hundred ms). Call inside a
 * describe; `makeGate` returns a fresh, empty gate per call (the caller closes it afterwards).
 */
export function gateContract(makeGate: () => ContractGate | Promise<ContractGate>): void {
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

  it('keeps tenants independent', async () => {
    const gate = await makeGate();
    await gate.acquire('t1', 1);
    expect(await gate.tryAcquire('t2', 1)).toBeDefined();
    expect(await gate.tryAcquire('t1', 1)).toBeUndefined();
  });

  it('releases a lease only once', async () => {
    const gate = await makeGate();
    const lease = await gate.acquire('t', 2);
    const other = await gate.acquire('t', 2);
    await lease.release();
    await lease.release();
    expect(await gate.busy('t')).toBe(1);
    await other.release();
    expect(await gate.busy('t')).toBe(0);
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

  it('holds a paused scope closed until the pause ends; pauses only extend', async () => {
    const gate = await makeGate();
    const until = Date.now() + 300;
    await gate.pause('partner', until);
    await gate.pause('partner', Date.now() + 50);
    await gate.waitUntilOpen('partner');
    expect(Date.now()).toBeGreaterThanOrEqual(until - 5);
    expect(Date.now()).toBeLessThan(until + 250);
    const start = Date.now();
    await gate.waitUntilOpen('other');
    expect(Date.now() - start).toBeLessThan(50);
  });

  it('stops waiting for a paused scope when the signal aborts', async () => {
    const gate = await makeGate();
    await gate.pause('partner', Date.now() + 10_000);
    const abort = new AbortController();
    const waiting = gate.waitUntilOpen('partner', abort.signal);
    setTimeout(() => abort.abort(new Error('stop')), 20);
    await expect(waiting).rejects.toThrow('stop');
  });
}
