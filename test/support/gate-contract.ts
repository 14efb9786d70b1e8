import { expect, it } from 'vitest';
import type { Lease, TenantGate } from '../../src/gate/gate.js';

/** A gate under test: the port plus the slot count every implementation offers for metrics. */
export type ContractGate = TenantGate & { busy(tenant: string): number | Promise<number> };

/** The lease of a slot the test knows is free. */
async function held(slot: Promise<Lease | undefined>): Promise<Lease> {
  const lease = await slot;
  if (!lease) throw new Error('expected a free slot');
  return lease;
}

/**
 * The behaviour every TenantGate shares, in real time (pauses of a few hundred ms). Waiting for a
 * slot is MemoryGate's alone (memory-gate.test.ts); the fleet's waiter list is RedisGate's. Call
 * inside a describe; `makeGate` returns a fresh, empty gate per call (the caller closes it).
 */
export function gateContract(makeGate: () => ContractGate | Promise<ContractGate>): void {
  it('admits at most `limit` leases per tenant', async () => {
    const gate = await makeGate();
    await held(gate.tryAcquire('t1', 2));
    await held(gate.tryAcquire('t1', 2));
    expect(await gate.tryAcquire('t1', 2)).toBeUndefined();
    expect(await gate.busy('t1')).toBe(2);
  });

  it('keeps tenants independent', async () => {
    const gate = await makeGate();
    await gate.tryAcquire('t1', 1);
    expect(await gate.tryAcquire('t2', 1)).toBeDefined();
    expect(await gate.tryAcquire('t1', 1)).toBeUndefined();
  });

  it('releases a lease only once', async () => {
    const gate = await makeGate();
    const lease = await held(gate.tryAcquire('t', 2));
    const other = await held(gate.tryAcquire('t', 2));
    await lease.release();
    await lease.release();
    expect(await gate.busy('t')).toBe(1);
    await other.release();
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
