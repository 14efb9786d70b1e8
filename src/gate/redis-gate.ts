import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { abortReason, type Clock, systemClock } from '../time/clock.js';
import type { Lease, TenantGate } from './gate.js';
import { gateNamespace } from './gate-keys.js';
import { acquireScript, busyScript, leaveScript, pauseScript, renewScript } from './gate-scripts.js';

export interface RedisGateOptions {
  /**
   * A redis:// URL, ioredis options, or a factory of connections (called twice: commands and
   * subscriber; the gate owns and closes both). Leave ioredis' own keyPrefix unset; use `keyPrefix`.
   */
  redis: string | RedisOptions | (() => Redis);
  /**
   * Namespace of every key and channel. A prefix holding a hash tag (`{erp-bridge}`) is used as it
   * is; any other is wrapped in braces to become one. Default `erp-bridge`.
   */
  keyPrefix?: string;
  /** A slot not renewed for this long is free again (its holder is presumed dead). Default 30 s. */
  leaseTtlMs?: number;
  /** Longest a waiter sleeps between attempts when no "slot freed" message arrives. Default 500 ms. */
  pollMs?: number;
  /** A queued waiter not heard from for this long leaves the queue. Default 5 × pollMs. */
  waiterTtlMs?: number;
  /** Told when a renewal finds the lease gone (the process stalled past its TTL). */
  onLeaseLost?: (tenant: string) => void;
  /** Connection-level errors (commands still reject on their own). Default: ignored. */
  onError?: (error: Error) => void;
  /** Converts pause deadlines to durations and sleeps; default the system clock. */
  clock?: Clock;
}

type Listener = (name: string) => void;

/**
 * The fleet's gate in Redis. Every key of the gate carries the hash tag of `keyPrefix`, so each Lua
 * script touches a single Cluster slot. Key layout (`{p}` = keyPrefix as a hash tag):
 *
 * - `{p}:gate:slots:<tenant>`     zset lease id → expiry (epoch ms, Redis TIME); live members = slots in use
 * - `{p}:gate:queue:<tenant>`     zset waiter id → arrival ticket; acquire() callers in arrival order
 * - `{p}:gate:queue-ttl:<tenant>` zset waiter id → expiry; waiters that stop polling drop out
 * - `{p}:gate:seq:<tenant>`       counter issuing the arrival tickets
 * - `{p}:gate:pause:<scope>`      string untilMs (caller's clock, informational) with PX = pause length
 *
 * Channels: `{p}:gate:freed` (message: tenant) when a slot is released or a waiter gives up;
 * `{p}:gate:paused` (message: scope) when a pause starts or is extended. All keys expire on their own.
 */
export class RedisGate implements TenantGate {
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  private subscription: Promise<unknown> | undefined;
  private readonly prefix: string;
  private readonly leaseTtlMs: number;
  private readonly pollMs: number;
  private readonly waiterTtlMs: number;
  private readonly clock: Clock;
  private readonly freedListeners = new Set<Listener>();
  private readonly pausedListeners = new Set<Listener>();
  private readonly renewals = new Set<NodeJS.Timeout>();
  private readonly failWaiters = new Set<(error: unknown) => void>();
  private closed = false;

  constructor(private readonly options: RedisGateOptions) {
    this.prefix = gateNamespace(options.keyPrefix);
    this.leaseTtlMs = options.leaseTtlMs ?? 30_000;
    this.pollMs = options.pollMs ?? 500;
    this.waiterTtlMs = options.waiterTtlMs ?? 5 * this.pollMs;
    this.clock = options.clock ?? systemClock;
    const { redis } = options;
    const connect = () =>
      typeof redis === 'function' ? redis() : typeof redis === 'string' ? new Redis(redis) : new Redis(redis);
    this.redis = connect();
    this.subscriber = connect();
    for (const connection of [this.redis, this.subscriber]) {
      connection.on('error', (error: Error) => options.onError?.(error));
    }
    this.subscriber.on('message', (channel: string, name: string) => {
      const listeners = channel === this.channel('freed') ? this.freedListeners : this.pausedListeners;
      for (const listener of listeners) listener(name);
    });
    this.ready().catch(() => {}); // acquire() and ready() retry a failed subscription
  }

  async tryAcquire(tenant: string, limit: number): Promise<Lease | undefined> {
    return this.take(tenant, limit, '');
  }

  async acquire(tenant: string, limit: number, signal?: AbortSignal): Promise<Lease> {
    await this.ready();
    const waiterId = randomUUID();
    try {
      for (;;) {
        if (signal?.aborted) throw abortReason(signal);
        // Listen before trying, so a release between the attempt and the wait is not missed.
        const freed = this.nextFreed(tenant, signal);
        const lease = await this.take(tenant, limit, waiterId).catch((error: unknown) => {
          freed.cancel();
          throw error;
        });
        if (lease && !signal?.aborted) {
          freed.cancel();
          return lease;
        }
        await lease?.release(); // granted just as the caller gave up
        await freed.promise; // rejects once aborted
      }
    } catch (error: unknown) {
      if (!this.closed) {
        await leaveScript
          .run(this.redis, this.queueKeys(tenant), [waiterId, this.channel('freed'), tenant])
          .catch(() => {});
      }
      throw error;
    }
  }

  async pause(scope: string, untilMs: number): Promise<void> {
    const ms = Math.ceil(untilMs - this.clock.now());
    if (ms <= 0) return;
    await pauseScript.run(
      this.redis,
      [this.key('pause', scope)],
      [ms, untilMs, this.channel('paused'), scope],
    );
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

  /** Resolves once the gate receives "slot freed" and "paused" messages (listeners miss earlier ones). */
  async ready(): Promise<void> {
    this.subscription ??= this.subscriber
      .subscribe(this.channel('freed'), this.channel('paused'))
      .catch((error: unknown) => {
        this.subscription = undefined;
        throw error;
      });
    await this.subscription;
  }

  /** Calls `listener(tenant)` whenever a slot of that tenant may have freed; returns the unsubscribe. */
  onSlotFreed(listener: (tenant: string) => void): () => void {
    this.freedListeners.add(listener);
    return () => this.freedListeners.delete(listener);
  }

  /** Calls `listener(scope)` whenever a scope is paused or its pause extended; returns the unsubscribe. */
  onPaused(listener: (scope: string) => void): () => void {
    this.pausedListeners.add(listener);
    return () => this.pausedListeners.delete(listener);
  }

  /**
   * Stops renewing leases (unreleased ones expire after their TTL, as if this process had died),
   * rejects pending acquire() calls and closes both connections.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.renewals) clearInterval(timer);
    this.renewals.clear();
    for (const fail of this.failWaiters) fail(new Error('RedisGate closed'));
    await Promise.allSettled([this.redis.quit(), this.subscriber.quit()]);
  }

  /**
   * Drops both connections at once, without QUIT: a shutdown past its deadline, when close() waits
   * on a Redis that does not answer. Also stops the renewals if close() never ran.
   */
  disconnect(): void {
    void this.close();
    this.redis.disconnect();
    this.subscriber.disconnect();
  }

  private async take(tenant: string, limit: number, waiterId: string): Promise<Lease | undefined> {
    if (this.closed) throw new Error('RedisGate closed');
    const leaseId = randomUUID();
    const granted = await acquireScript.run(
      this.redis,
      [this.key('slots', tenant), ...this.queueKeys(tenant), this.key('seq', tenant)],
      [leaseId, limit, this.leaseTtlMs, waiterId, this.waiterTtlMs],
    );
    return granted === 1 ? this.lease(tenant, leaseId) : undefined;
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
        await leaveScript.run(this.redis, [slots, slots], [leaseId, this.channel('freed'), tenant]);
      },
    };
  }

  /** Resolves on the next "slot freed" of the tenant or after pollMs; rejects on abort or close. */
  private nextFreed(tenant: string, signal?: AbortSignal) {
    let cancel = () => {};
    const promise = new Promise<void>((resolve, reject) => {
      const wake = () => {
        cancel();
        resolve();
      };
      const fail = (error: unknown) => {
        cancel();
        reject(error);
      };
      const onFreed = (freed: string) => freed === tenant && wake();
      const onAbort = () => fail(abortReason(signal as AbortSignal));
      const timer = setTimeout(wake, this.pollMs);
      this.freedListeners.add(onFreed);
      this.failWaiters.add(fail);
      signal?.addEventListener('abort', onAbort, { once: true });
      cancel = () => {
        clearTimeout(timer);
        this.freedListeners.delete(onFreed);
        this.failWaiters.delete(fail);
        signal?.removeEventListener('abort', onAbort);
      };
    });
    promise.catch(() => {}); // awaited later, or cancelled; never an unhandled rejection
    return { promise, cancel: () => cancel() };
  }

  private queueKeys(tenant: string): [string, string] {
    return [this.key('queue', tenant), this.key('queue-ttl', tenant)];
  }

  private key(kind: string, name: string): string {
    return `${this.prefix}:${kind}:${name}`;
  }

  private channel(kind: 'freed' | 'paused'): string {
    return `${this.prefix}:${kind}`;
  }
}
