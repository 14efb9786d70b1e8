import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { PartnerClient, type PartnerClientSettings } from '../../src/client/index.js';
import { loadFeedFile } from '../../src/config/load-feed.js';
import { MemoryGate } from '../../src/gate/memory-gate.js';
import { reconcileFeed } from '../../src/in-process/reconcile-runner.js';
import { type FeedRunResult, type RunnerDeps, runFeed } from '../../src/in-process/runner.js';
import { createLogger } from '../../src/logging/logger.js';
import { createFaultInjector, parseFaultConfig } from '../../src/sandbox/faults.js';
import type { FaultConfigInput } from '../../src/sandbox/faults-config.js';
import type { Seed } from '../../src/sandbox/seed.js';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/server.js';
import type { RunAlerts } from '../../src/sync/alerts.js';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import type { ReconcileLine } from '../../src/sync/reconcile/reconcile.js';
import { systemClock } from '../../src/time/clock.js';
import { FakeClock } from './fake-clock.js';

/** What the client did, in order, on the fake clock: a request passing the gate, or a 429 it heard. */
export type RequestEvent =
  | { kind: 'request'; operation: string; at: number }
  | { kind: '429'; operation: string; at: number; retryAfterMs: number };

/** Something in front of the sandbox's {base_url} (a proxy): the client then talks to `url`. */
export interface Front {
  url: string;
  close(): Promise<void>;
}

export interface HarnessOptions<F extends Front> {
  front?: (sandbox: SandboxHandle) => Promise<F>;
  /** The client's and the runs' logger; silent by default. */
  logger?: Logger;
  /** The sandbox's seed (default: the documented one); the client uses its first client's credentials. */
  seed?: Seed;
  /** Client settings on top of the sandbox's (timeouts, in-flight grace). */
  client?: Partial<PartnerClientSettings>;
  /**
   * Sleeps also wait in real time (still recorded and advancing the fake clock): for faults that
   * race the client's real-time timeouts, like a commit after the headers timeout.
   */
  realTime?: boolean;
}

export type HarnessRun = FeedRunResult & { outcomes: RecordOutcome[] };

/**
 * An in-process sync against a real sandbox on loopback, with fake time (retry and Retry-After
 * waits pass instantly) and a fresh report folder. Faults can be changed between runs.
 * Every fake sleep also advances the sandbox clock, so the sandbox sees the time the client
 * waited (a rate-limit bucket refills during a Retry-After wait, as it would for real).
 */
export async function syncHarness<F extends Front = Front>(
  faults: FaultConfigInput = {},
  options: HarnessOptions<F> = {},
) {
  const injector = createFaultInjector(faults);
  const sandbox: SandboxHandle = await startSandbox({
    faults: injector,
    ...(options.seed ? { seed: options.seed } : {}),
  });
  const front = await options.front?.(sandbox);
  const clock = new FakeClock(Date.now());
  const fakeSleep = clock.sleep.bind(clock);
  clock.sleep = async (ms, signal) => {
    if (options.realTime) await systemClock.sleep(ms, signal);
    sandbox.runtime.clock.advance(ms);
    return fakeSleep(ms, signal);
  };
  const gate = new MemoryGate(clock);
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const scope = 'partner:sandbox-client';
  const events: RequestEvent[] = [];
  const client = new PartnerClient(
    {
      baseUrl: front?.url ?? sandbox.url,
      authUrl: sandbox.authUrl,
      clientId: sandbox.clientId,
      clientSecret: sandbox.clientSecret,
      ...options.client,
    },
    {
      clock,
      logger,
      hooks: {
        beforeRequest: async (start) => {
          await gate.waitUntilOpen(scope, start.signal);
          events.push({ kind: 'request', operation: start.operation, at: clock.now() });
        },
        onRateLimited: (info) => {
          events.push({
            kind: '429',
            operation: info.operation,
            at: clock.now(),
            retryAfterMs: info.retryAfterMs,
          });
          void gate.pause(scope, clock.now() + info.retryAfterMs);
        },
      },
    },
  );
  const reportDir = mkdtempSync(join(tmpdir(), 'erp-bridge-reports-'));

  /** One `sync` of the feed; with `alerts`, judged as the command judges it. */
  async function run(
    feedFile: string,
    dryRun = false,
    alerts?: RunAlerts,
    extra: Pick<
      RunnerDeps,
      'identity' | 'interrupt' | 'onlyLines' | 'cursor' | 'reimport' | 'openDatabase' | 'env'
    > = {},
  ): Promise<HarnessRun> {
    const loaded = await loadFeedFile(feedFile);
    const result = await runFeed(loaded, dryRun, {
      client,
      clock,
      logger,
      gate,
      reportDir,
      ...(alerts ? { alerts } : {}),
      ...extra,
    });
    // Every line carries the run id (checked here once); the tests compare the outcomes without it.
    const outcomes = readFileSync(result.files.ndjson, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { runId, ...outcome } = JSON.parse(line) as RecordOutcome & { runId: string };
        if (runId !== result.summary.runId)
          throw new Error(`outcome of run ${runId} in ${result.summary.runId}`);
        return outcome;
      });
    return { ...result, outcomes };
  }

  /** One `reconcile` of the feed (read-only), with its report's lines. */
  async function reconcile(feedFile: string, env?: NodeJS.ProcessEnv) {
    const loaded = await loadFeedFile(feedFile);
    const result = await reconcileFeed(loaded, { client, clock, logger, reportDir, ...(env ? { env } : {}) });
    const lines = readFileSync(result.files.ndjson, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { reconcileId: _, ...rest } = JSON.parse(line) as ReconcileLine & { reconcileId: string };
        return rest;
      });
    return { ...result, lines };
  }

  /** Every transaction stored for the account, across its bank accounts. */
  function transactions(accountId: number) {
    const account = sandbox.runtime.state.accounts.get(accountId);
    return [...(account?.transactions.values() ?? [])].flatMap((byId) => [...byId.values()]);
  }

  /** The account's transactions or invoices as the admin endpoint dumps them (over HTTP). */
  async function stored(accountId: number, kind: 'transactions' | 'invoices') {
    const res = await fetch(`${sandbox.authUrl}/_sandbox/accounts/${accountId}/${kind}`);
    if (res.status !== 200) throw new Error(`sandbox dump failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: number; externalId: string | null }[] }).data;
  }

  /** Replaces the fault config (script, rates and buckets start afresh); no argument clears every fault. */
  function setFaults(config: FaultConfigInput = {}) {
    injector.configure(parseFaultConfig(config, '(test)'));
  }

  /** The sandbox's request counts of one operation, by status ('reset' for dropped connections). */
  const requests = (operation: string): Record<string, number> =>
    sandbox.runtime.stats.snapshot().requests[operation] ?? {};

  return {
    sandbox,
    front,
    clock,
    injector,
    client,
    reportDir,
    events,
    run,
    reconcile,
    transactions,
    stored,
    setFaults,
    requests,
    close: async () => {
      await client.close();
      await front?.close();
      await sandbox.close();
    },
  };
}

export type SyncHarness = Awaited<ReturnType<typeof syncHarness<Front>>>;
