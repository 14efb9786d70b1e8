import { tmpdir } from 'node:os';
import type { Logger } from 'pino';
import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  combineHooks,
  PartnerClient,
  type PartnerClientSettings,
  type RequestStart,
} from '../../src/client/index.js';
import { loadFeedFile } from '../../src/config/load-feed.js';
import { FileRegistry } from '../../src/fleet/file-registry.js';
import type { FleetConfig } from '../../src/fleet/fleet-config.js';
import { fleetKeys } from '../../src/fleet/keys.js';
import { type EnqueueOptions, enqueueFeed } from '../../src/fleet/producer.js';
import { openQueues } from '../../src/fleet/queues.js';
import { awaitReconcile, enqueueReconcile } from '../../src/fleet/reconcile-producer.js';
import { RedisReconcileStore } from '../../src/fleet/reconcile-store.js';
import { connectRedis } from '../../src/fleet/redis.js';
import { RedisRunStore } from '../../src/fleet/run-store.js';
import { type RunningWorker, startWorker } from '../../src/fleet/worker.js';
import { gateHooks, partnerScope } from '../../src/gate/client-hooks.js';
import type { ScopePauses } from '../../src/gate/gate.js';
import { RedisGate } from '../../src/gate/redis-gate.js';
import { createLogger } from '../../src/logging/logger.js';
import { metricsHooks } from '../../src/ops/client-metrics.js';
import type { Metrics } from '../../src/ops/metrics.js';
import { syncMeter } from '../../src/ops/sync-meter.js';
import { createFaultInjector } from '../../src/sandbox/faults.js';
import { FaultConfig, type FaultConfigInput } from '../../src/sandbox/faults-config.js';
import type { SandboxRequestEvent } from '../../src/sandbox/runtime.js';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/server.js';
import type { RunAlerts } from '../../src/sync/alerts.js';
import type { SyncMeter } from '../../src/sync/meter.js';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import type { RunSummary } from '../../src/sync/report/summary.js';
import type { OpenDatabase } from '../../src/sync/run/database-run.js';
import { type Clock, systemClock } from '../../src/time/clock.js';
import { HANG_GUARD_MS } from './hang-guard.js';
import { type TestRedis, testRedis } from './redis.js';

/**
 * The fleet in this process against a real Redis and a sandbox on loopback: a producer side
 * (enqueue, runs, reports) and any number of workers, each with its own Redis connections and
 * gate, as separate processes would have. Real time: BullMQ and Redis run on their own clocks.
 */
export function fleetHarness(redis: TestRedis, sandbox: SandboxHandle, overrides: Partial<FleetConfig> = {}) {
  const config: FleetConfig = {
    redisUrl: redis.url,
    prefix: redis.newPrefix(),
    // Generated exports and their feed files live in temp dirs: the fleet's feed directory.
    feedsDir: tmpdir(),
    runRetentionMs: 86_400_000,
    failedRetryRuns: 2,
    shutdownGraceMs: 5_000,
    slotLeaseMs: 10_000,
    // Under load (2 cores, a busy suite) a 5 s lock was lost before renewal and a chunk replayed.
    jobLockMs: 10_000,
    ...overrides,
  };
  const logger = createLogger({ level: 'silent' });
  const connection = connectRedis(config.redisUrl, 'test-producer');
  const keys = fleetKeys(config.prefix);
  // Lost connections (a Redis restart test) are expected here; ioredis reconnects.
  const ignoreConnectionErrors = () => {};
  const queues = openQueues(connection, config.prefix, ignoreConnectionErrors);
  const store = new RedisRunStore(connection, keys, config.runRetentionMs);
  const registry = new FileRegistry(connection, keys);
  const reconciles = new RedisReconcileStore(connection, keys, config.runRetentionMs);
  const closers: (() => Promise<unknown>)[] = [];
  /** Request starts and 429s of every worker, in the order they happened. */
  const events: {
    kind: 'start' | '429' | 'paused';
    at: number;
    operation: string;
    retryAfterMs?: number;
    /** A start's: when it asked the gate (a pause stored before then must hold it back). */
    askedAt?: number;
  }[] = [];

  /**
   * A worker. `instantRetries` makes the client's retry and Retry-After waits pass at once (the
   * waits themselves are tested with fake time in the client tests). `logger` (default silent)
   * serves the worker and its client; `alerts` judges the runs it finishes. With `metrics`, the
   * worker counts into them as `erp-bridge worker` does (client hooks and the sync meter).
   */
  function worker(
    concurrency = 4,
    options: {
      instantRetries?: boolean;
      logger?: Logger;
      alerts?: RunAlerts;
      metrics?: Metrics;
      /** Client settings on top of the sandbox's (timeouts, in-flight grace). */
      client?: Partial<PartnerClientSettings>;
      /** Awaited before each request of the worker's client, once the gate let it go (holds a chunk back). */
      beforeRequest?: (start: RequestStart) => Promise<void>;
      /** Database feeds: how the worker opens their database (a test double of the reading). */
      openDatabase?: OpenDatabase;
      /** Hears stored outcomes and synced chunks (instead of `metrics`' meter): a test's probe. */
      meter?: SyncMeter;
    } = {},
  ): RunningWorker {
    const log = options.logger ?? logger;
    const clientClock: Clock = options.instantRetries
      ? { now: () => Date.now(), sleep: async () => {} }
      : systemClock;
    const own = connectRedis(config.redisUrl, 'test-worker');
    const gate = new RedisGate({
      redis: () => own.duplicate(),
      keyPrefix: config.prefix,
      leaseTtlMs: config.slotLeaseMs,
    });
    // The gate as the hooks see it, noting when a pause has been stored (for the 429 test).
    const observed: ScopePauses = {
      waitUntilOpen: (scope, signal) => gate.waitUntilOpen(scope, signal),
      pause: async (scope, untilMs) => {
        await gate.pause(scope, untilMs);
        events.push({ kind: 'paused', at: Date.now(), operation: scope });
      },
    };
    const hooks = gateHooks(observed, partnerScope(sandbox.clientId), clientClock, log);
    const client = new PartnerClient(
      {
        baseUrl: sandbox.url,
        authUrl: sandbox.authUrl,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        ...options.client,
      },
      {
        logger: log,
        clock: clientClock,
        hooks: combineHooks(options.metrics ? metricsHooks(options.metrics) : {}, {
          ...hooks,
          // Recorded once the gate let the request go: when requests really started.
          beforeRequest: async (start) => {
            const askedAt = Date.now();
            await hooks.beforeRequest(start);
            await options.beforeRequest?.(start);
            events.push({ kind: 'start', at: Date.now(), operation: start.operation, askedAt });
          },
          onRateLimited: (info) => {
            events.push({
              kind: '429',
              at: Date.now(),
              operation: info.operation,
              retryAfterMs: info.retryAfterMs,
            });
            hooks.onRateLimited(info);
          },
        }),
      },
    );
    const running = startWorker({
      config,
      connection: own,
      queues: openQueues(own, config.prefix, ignoreConnectionErrors),
      keys,
      store: new RedisRunStore(own, keys, config.runRetentionMs),
      registry: new FileRegistry(own, keys),
      gate,
      client,
      clock: systemClock,
      logger: log,
      concurrency,
      slotWaitMs: 500,
      ...(options.alerts ? { alerts: options.alerts } : {}),
      ...(options.metrics ? { meter: syncMeter(options.metrics) } : {}),
      ...(options.meter ? { meter: options.meter } : {}),
      ...(options.openDatabase ? { openDatabase: options.openDatabase } : {}),
    });
    let closed = false;
    const close = async (graceMs?: number) => {
      if (closed) return { released: false };
      closed = true;
      const result = await running.close(graceMs);
      await gate.close();
      await client.close();
      await own.quit();
      return result;
    };
    closers.push(close);
    return { close, disconnect: () => running.disconnect() };
  }

  async function enqueue(feedFile: string, options: EnqueueOptions = {}) {
    return enqueueFeed(await loadFeedFile(feedFile), options, {
      feedsDir: config.feedsDir,
      registry,
      store,
      imports: queues.imports,
      logger,
      now: () => Date.now(),
    });
  }

  /** Polls until the run has a summary (every chunk finished), or fails after `timeoutMs`. */
  async function finished(runId: string, timeoutMs = HANG_GUARD_MS): Promise<RunSummary> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const summary = await store.summary(runId);
      if (summary) return summary;
      if (Date.now() > deadline) throw new Error(`run ${runId} did not finish within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** `reconcile --fleet` of one feed: enqueued, then waited for (a summary, or why its job failed). */
  async function reconcile(feedFile: string) {
    const reconcileId = await enqueueReconcile(await loadFeedFile(feedFile), {
      feedsDir: config.feedsDir,
      reconciles: queues.reconciles,
      now: () => Date.now(),
    });
    const done = await awaitReconcile(reconcileId, {
      store: reconciles,
      reconciles: queues.reconciles,
      pollMs: 50,
      timeoutMs: HANG_GUARD_MS,
    });
    return { reconcileId, ...done };
  }

  async function outcomes(runId: string): Promise<RecordOutcome[]> {
    const all: RecordOutcome[] = [];
    for await (const o of store.outcomes(runId)) all.push(o);
    return all.sort((a, b) => a.line - b.line);
  }

  return {
    config,
    events,
    connection,
    queues,
    store,
    registry,
    reconciles,
    worker,
    enqueue,
    reconcile,
    finished,
    outcomes,
    close: async () => {
      for (const close of closers.splice(0)) await close();
      await queues.close();
      await connection.quit();
    },
  };
}

/**
 * A test file's world: one sandbox (faults configurable per test, back to `baseFaults` after
 * each) and one Redis prefix; `start()` gives a fresh fleet per test, closed after it.
 * `requests()` are the partner API calls the sandbox answered during the test, in answer order.
 */
export function fleetTestWorld(baseFaults: FaultConfigInput = {}) {
  const redis = testRedis();
  const faults = createFaultInjector(baseFaults);
  const world = {} as { sandbox: SandboxHandle; fleet?: ReturnType<typeof fleetHarness> };
  const requests: SandboxRequestEvent[] = [];
  beforeAll(async () => {
    world.sandbox = await startSandbox({ faults, onRequest: (event) => requests.push(event) });
  });
  afterAll(async () => {
    await world.sandbox.close();
    await redis.cleanup();
  });
  afterEach(async () => {
    await world.fleet?.close();
    world.fleet = undefined;
    world.sandbox.runtime.reset();
    faults.configure(FaultConfig.parse(baseFaults));
    requests.length = 0;
  });
  return {
    faults: (config: FaultConfigInput) => faults.configure(FaultConfig.parse(config)),
    sandbox: () => world.sandbox,
    requests: (): readonly SandboxRequestEvent[] => requests,
    /** Every transaction the sandbox holds for the account, over all its bank accounts. */
    transactions: (accountId = 1001) =>
      [...(world.sandbox.runtime.state.accounts.get(accountId)?.transactions.values() ?? [])].flatMap((m) => [
        ...m.values(),
      ]),
    start: (overrides: Partial<FleetConfig> = {}) => {
      world.fleet = fleetHarness(redis, world.sandbox, overrides);
      return world.fleet;
    },
  };
}
