import type { Job } from 'bullmq';
import type { FleetGate } from '../gate/gate.js';

/** What waiting for a slot does with a job: BullMQ's moves (a part of Job, so tests can stand in). */
export type WaitingJob = Pick<Job, 'id' | 'moveToDelayed' | 'promote'>;

/**
 * Sends a job without a tenant slot to the delayed set (it holds no worker slot while it waits)
 * for `waitMs` to twice that, and registers it as a waiter of the tenant, in that order: every
 * waker that pops it then finds it delayed and can promote it. Then one more try: a slot freed
 * before the registration woke nobody (or another waiter), and only this probe sees it; the job
 * then promotes itself. A slot freed after the probe found none is released after the
 * registration, so its waker pops this job or one registered before it. No wake-up is lost.
 * The caller throws BullMQ's DelayedError next.
 */
export async function delayUntilSlot(
  gate: FleetGate,
  job: WaitingJob,
  slot: { tenant: string; limit: number },
  waitMs: number,
  token?: string,
): Promise<{ promoted: boolean }> {
  await job.moveToDelayed(Date.now() + waitMs + Math.floor(Math.random() * waitMs), token);
  await gate.addWaiter(slot.tenant, String(job.id));
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
