import type { Job } from 'bullmq';
import type { FleetGate, Lease } from '../gate/gate.js';

/** What waiting for a slot does with a job: BullMQ's moves (a part of Job, so tests can stand in). */
export type WaitingJob = Pick<Job, 'id' | 'moveToDelayed' | 'promote'>;

/**
 * A tenant slot now, or the job registered as a waiter of the tenant and one more try: a slot
 * freed between the first try and the registration woke nobody, and only this try sees it. Most
 * waits under load end here, without a trip through the delayed set.
 */
export async function slotOrWaiter(
  gate: FleetGate,
  jobId: string,
  slot: { tenant: string; limit: number },
): Promise<Lease | undefined> {
  const lease = await gate.tryAcquire(slot.tenant, slot.limit);
  if (lease) return lease;
  await gate.addWaiter(slot.tenant, jobId);
  return gate.tryAcquire(slot.tenant, slot.limit);
}

/**
 * Sends a registered waiter to the delayed set (it holds no worker slot while it waits) for
 * `waitMs` to twice that, then probes once: a slot freed while the job was on its way to the
 * delayed set found it not delayed yet, so its waker could not promote it, and the job would sleep
 * the whole wait beside a free slot; it promotes itself instead. A slot freed after the probe is
 * released after the job was delayed and registered, so its waker pops this job or one
 * registered before it. No wake-up is lost. The caller throws BullMQ's DelayedError next.
 */
export async function delayUntilSlot(
  gate: FleetGate,
  job: WaitingJob,
  slot: { tenant: string; limit: number },
  waitMs: number,
  token?: string,
): Promise<{ promoted: boolean }> {
  await job.moveToDelayed(Date.now() + waitMs + Math.floor(Math.random() * waitMs), token);
  const probe = await gate.tryAcquire(slot.tenant, slot.limit);
  if (!probe) return { promoted: false };
  await probe.release();
  await job.promote().catch(() => undefined);
  return { promoted: true };
}

/** After a slot of the tenant is released: promotes the longest-waiting job of the tenant. */
export async function wakeOneWaiter(
  gate: FleetGate,
  tenant: string,
  jobOf: (id: string) => Promise<Pick<Job, 'promote'> | undefined>,
): Promise<void> {
  const id = await gate.popWaiter(tenant);
  if (!id) return;
  // promote() refuses a job that is not delayed (it is already on its way back, or gone).
  await (await jobOf(id))?.promote().catch(() => undefined);
}
