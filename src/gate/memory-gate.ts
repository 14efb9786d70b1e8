import { abortReason, type Clock, systemClock } from '../time/clock.js';
import type { Lease, TenantGate } from './gate.js';

interface Waiter {
  limit: number;
  grant: (lease: Lease) => void;
}

/** The gate of one process: semaphores per tenant and pause deadlines per scope, in memory. */
export class MemoryGate implements TenantGate {
  private readonly inFlight = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly pauses = new Map<string, number>();

  constructor(private readonly clock: Clock = systemClock) {}

  async tryAcquire(tenant: string, limit: number): Promise<Lease | undefined> {
    if ((this.inFlight.get(tenant) ?? 0) >= limit || (this.waiters.get(tenant)?.length ?? 0) > 0)
      return undefined;
    return this.take(tenant);
  }

  acquire(tenant: string, limit: number, signal?: AbortSignal): Promise<Lease> {
    // Like RedisGate: an already-aborted caller gets no slot, even a free one.
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if ((this.inFlight.get(tenant) ?? 0) < limit && !(this.waiters.get(tenant)?.length ?? 0)) {
      return Promise.resolve(this.take(tenant));
    }
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
