import { abortReason, type Clock, systemClock } from '../time/clock.js';
import type { Lease, WaitingGate } from './gate.js';

interface Waiter {
  limit: number;
  grant: (lease: Lease) => void;
}

/**
 * The gate of one process (the in-process runner): semaphores per tenant whose callers wait in
 * arrival order, and pause deadlines per scope, in memory.
 */
export class MemoryGate implements WaitingGate {
  private readonly inFlight = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly pauses = new Map<string, number>();

  constructor(private readonly clock: Clock = systemClock) {}

  async tryAcquire(tenant: string, limit: number): Promise<Lease | undefined> {
    return this.admit(tenant, limit);
  }

  acquire(tenant: string, limit: number, signal?: AbortSignal): Promise<Lease> {
    // An already-aborted caller gets no slot, even a free one: it has given up.
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    // Checked and queued in one synchronous step: a release in between would wake nobody.
    const now = this.admit(tenant, limit);
    if (now) return Promise.resolve(now);
    return new Promise<Lease>((resolve, reject) => {
      const queue = this.waiters.get(tenant) ?? [];
      this.waiters.set(tenant, queue);
      const waiter: Waiter = {
        limit,
        grant: (lease) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(lease);
        },
      };
      const onAbort = () => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(signal?.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  async pause(scope: string, untilMs: number): Promise<void> {
    if (untilMs > (this.pauses.get(scope) ?? 0)) this.pauses.set(scope, untilMs);
  }

  async waitUntilOpen(scope: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const until = this.pauses.get(scope) ?? 0;
      const wait = until - this.clock.now();
      if (wait <= 0) return;
      await this.clock.sleep(wait, signal);
    }
  }

  /** A slot when the tenant is below its limit and nobody waits ahead; undefined otherwise. */
  private admit(tenant: string, limit: number): Lease | undefined {
    const full = (this.inFlight.get(tenant) ?? 0) >= limit || (this.waiters.get(tenant)?.length ?? 0) > 0;
    return full ? undefined : this.take(tenant);
  }

  /** Slots in use per tenant (for tests and metrics). */
  busy(tenant: string): number {
    return this.inFlight.get(tenant) ?? 0;
  }

  private take(tenant: string): Lease {
    this.inFlight.set(tenant, (this.inFlight.get(tenant) ?? 0) + 1);
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        this.inFlight.set(tenant, (this.inFlight.get(tenant) ?? 1) - 1);
        this.wake(tenant);
      },
    };
  }

  private wake(tenant: string): void {
    const queue = this.waiters.get(tenant);
    const next = queue?.[0];
    if (!queue || !next || (this.inFlight.get(tenant) ?? 0) >= next.limit) return;
    queue.shift();
    next.grant(this.take(tenant));
  }
}
