import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { type Clock, systemClock } from '../time/clock.js';
import type { FleetGate, Lease } from './gate.js';
import { gateNamespace } from './gate-keys.js';
import { acquireScript, busyScript, pauseScript, renewScript } from './gate-scripts.js';

export interface RedisGateOptions {
  /**
   * A redis:// URL, ioredis options, or a factory of the connection (the gate owns and closes it).
   * Leave ioredis' own keyPrefix unset; use `keyPrefix`.
   */
  redis: string | RedisOptions | (() => Redis);
  /**
   * Namespace of every key. A prefix holding a hash tag (`{erp-bridge}`) is used as it is; any
   * other is wrapped in braces to become one. Default `erp-bridge`.
   */
  keyPrefix?: string;
  /** A slot not renewed for this long is free again (its holder is presumed dead). Default 30 s. */
  leaseTtlMs?: number;
  /** Told when a renewal finds the lease gone (the process stalled past its TTL). */
  onLeaseLost?: (tenant: string) => void;
  /** Connection-level errors (commands still reject on their own). Default: ignored. */
  onError?: (error: Error) => void;
  /** Converts pause deadlines to durations and sleeps; default the system clock. */
  clock?: Clock;
}

/**
 * The fleet's gate in Redis. Every key of the gate carries the hash tag of `keyPrefix`, so each Lua
 * script touches a single Cluster slot. Key layout (`{p}` = keyPrefix as a hash tag):
 *
 * - `{p}:gate:slots:<tenant>`   zset lease id → expiry (epoch ms, Redis TIME); live members = slots in use
 * - `{p}:gate:waiters:<tenant>` zset waiter → registration time; the next to wake has the lowest
 * - `{p}:gate:pause:<scope>`    string untilMs (caller's clock, informational) with PX = pause length
 *
 * Slots and pauses expire on their own; a waiter stays listed until it is popped or leaves.
 */
export class RedisGate implements FleetGate {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly leaseTtlMs: number;
  private readonly clock: Clock;
  private readonly renewals = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: RedisGateOptions) {
    this.prefix = gateNamespace(options.keyPrefix);
    this.leaseTtlMs = options.leaseTtlMs ?? 30_000;
    this.clock = options.clock ?? systemClock;
    const { redis } = options;
    this.redis =
      typeof redis === 'function' ? redis() : typeof redis === 'string' ? new Redis(redis) : new Redis(redis);
    this.redis.on('error', (error: Error) => options.onError?.(error));
  }

  async tryAcquire(tenant: string, limit: number): Promise<Lease | undefined> {
    if (this.closed) throw new Error('RedisGate closed');
    const leaseId = randomUUID();
    const granted = await acquireScript.run(
      this.redis,
      [this.key('slots', tenant)],
      [leaseId, limit, this.leaseTtlMs],
    );
    return granted === 1 ? this.lease(tenant, leaseId) : undefined;
  }

  async addWaiter(tenant: string, waiter: string): Promise<void> {
    await this.redis.zadd(this.key('waiters', tenant), Date.now(), waiter);
  }

  async removeWaiter(tenant: string, waiter: string): Promise<void> {
    await this.redis.zrem(this.key('waiters', tenant), waiter);
  }

  async popWaiter(tenant: string): Promise<string | undefined> {
    const [waiter] = await this.redis.zpopmin(this.key('waiters', tenant));
    return waiter;
  }

  async pause(scope: string, untilMs: number): Promise<void> {
    const ms = Math.ceil(untilMs - this.clock.now());
    if (ms <= 0) return;
    await pauseScript.run(this.redis, [this.key('pause', scope)], [ms, untilMs]);
  }

  async waitUntilOpen(scope: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const remaining = await this.pausedFor(scope);
      if (remaining <= 0) return;
      // A pause only extends, so sleeping its remaining time is never too long; re-check after.
      await this.clock.sleep(remaining, signal);
    }
  }

  /** Milliseconds the scope stays paused (0 when open), on the Redis clock. */
  async pausedFor(scope: string): Promise<number> {
    return Math.max(0, await this.redis.pttl(this.key('pause', scope)));
  }

  /** Live leases of the tenant across the fleet (for tests and metrics). */
  busy(tenant: string): Promise<number> {
    return busyScript.run(this.redis, [this.key('slots', tenant)], []);
  }

  /** Stops renewing leases (unreleased ones expire after their TTL, as if this process had died) and closes the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopRenewals();
    await this.redis.quit().catch(() => undefined);
  }

  /**
   * Drops the connection at once, without QUIT: a shutdown past its deadline, when close() waits
   * on a Redis that does not answer. Also stops the renewals if close() never ran.
   */
  disconnect(): void {
    this.closed = true;
    this.stopRenewals();
    this.redis.disconnect();
  }

  private stopRenewals(): void {
    for (const timer of this.renewals) clearInterval(timer);
    this.renewals.clear();
  }

  private lease(tenant: string, leaseId: string): Lease {
    const slots = this.key('slots', tenant);
    let released = false;
    const renewal = setInterval(() => {
      renewScript.run(this.redis, [slots], [leaseId, this.leaseTtlMs]).then(
        (alive) => {
          if (alive || released) return;
          stop();
          this.options.onLeaseLost?.(tenant);
        },
        () => {}, // a failed renewal is retried on the next tick; the TTL outlasts one miss
      );
    }, this.leaseTtlMs / 3);
    renewal.unref();
    this.renewals.add(renewal);
    const stop = () => {
      clearInterval(renewal);
      this.renewals.delete(renewal);
    };
    return {
      release: async () => {
        if (released) return;
        released = true;
        stop();
        if (this.closed) return; // no connection left; the lease expires on its own
        await this.redis.zrem(slots, leaseId);
      },
    };
  }

  private key(kind: 'slots' | 'waiters' | 'pause', name: string): string {
    return `${this.prefix}:${kind}:${name}`;
  }
}
