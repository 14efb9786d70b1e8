import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PartnerClientSettings } from '../../src/client/index.js';
import { FileIdentityStore } from '../../src/in-process/identity-file-store.js';
import type { FaultConfigInput } from '../../src/sandbox/faults-config.js';
import type { SandboxRuntime } from '../../src/sandbox/runtime.js';
import type { RunAlerts } from '../../src/sync/alerts.js';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import type { RunSummary } from '../../src/sync/report/summary.js';
import type { fleetHarness, fleetTestWorld } from './fleet-harness.js';
import { type SyncHarness, syncHarness } from './sync-harness.js';

/** One run as an adapter reports it, and when the feed alerts heard of it. */
export interface AdapterRun {
  summary: RunSummary;
  /** In file and line order. */
  outcomes: RecordOutcome[];
  /** Whether the run's summary was stored when the feed alerts judged the run (undefined: not judged). */
  summaryStoredAtAlert: boolean | undefined;
}

/** What a scenario sets for its runs. */
export interface RunSettings {
  /** Client settings on top of the sandbox's (a short headers timeout). */
  client?: Partial<PartnerClientSettings>;
  /** Retry and recheck waits take real time: a fault that races the client's real-time timeout. */
  realTime?: boolean;
}

/**
 * A runner as the conformance suite drives it: a fresh service (the sandbox's seed) per scenario,
 * faults set between runs, one run of a feed at a time, and the service's state read in place.
 */
export interface RunnerAdapter {
  readonly name: 'in-process' | 'fleet';
  start(settings: RunSettings): Promise<void>;
  faults(config: FaultConfigInput): void;
  /** One run of the feed, as `sync [--dry-run]` or `enqueue [--dry-run]` starts it. */
  run(feedFile: string, dryRun: boolean): Promise<AdapterRun>;
  /** The adapter's sandbox: its state, request counts and fault injector. */
  sandbox(): SandboxRuntime;
  stop(): Promise<void>;
}

const byPosition = (a: RecordOutcome, b: RecordOutcome) => a.file.localeCompare(b.file) || a.line - b.line;

/** Feed alerts that only note whether the run's summary was already stored when they were told. */
function alertsNoting(stored: (summary: RunSummary) => Promise<boolean>) {
  const heard = new Map<string, boolean>();
  const alerts: RunAlerts = {
    runFinished: async (summary) => {
      heard.set(summary.runId, await stored(summary));
    },
    close: async () => {},
  };
  return { alerts, heard };
}

/**
 * `erp-bridge sync` of one feed (src/in-process/runner.ts runFeed): report files, identity settings
 * in the report folder as the command keeps them without --sandbox, fake time unless `realTime`.
 */
export function inProcessAdapter(): RunnerAdapter {
  let harness: SyncHarness | undefined;
  const h = () => {
    if (!harness) throw new Error('in-process adapter not started');
    return harness;
  };
  return {
    name: 'in-process',
    async start(settings) {
      harness = await syncHarness(
        {},
        {
          ...(settings.client ? { client: settings.client } : {}),
          ...(settings.realTime ? { realTime: true } : {}),
        },
      );
    },
    faults: (config) => h().setFaults(config),
    async run(feedFile, dryRun) {
      const { reportDir } = h();
      const { alerts, heard } = alertsNoting(async (summary) =>
        existsSync(join(reportDir, summary.runId, 'summary.json')),
      );
      const run = await h().run(feedFile, dryRun, alerts, {
        identity: { store: new FileIdentityStore(reportDir), accept: false },
      });
      return {
        summary: run.summary,
        outcomes: [...run.outcomes].sort(byPosition),
        summaryStoredAtAlert: heard.get(run.summary.runId),
      };
    },
    sandbox: () => h().sandbox.runtime,
    async stop() {
      await harness?.close();
      harness = undefined;
    },
  };
}

/** Waits until the run's import job (its id is the run id) has ended, after-care included. */
async function jobDone(fleet: ReturnType<typeof fleetHarness>, runId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await (await fleet.queues.imports.getJob(runId))?.getState();
    if (state === 'completed' || state === 'failed') return;
    if (Date.now() > deadline) throw new Error(`the import job of run ${runId} did not end (${state})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The fleet in this process (producer, one worker, Redis, BullMQ; test/support/fleet-harness.ts):
 * a feed's first run is `enqueue`, a later run of it `enqueue --reimport` (`sync` reads every line
 * again; a plain enqueue of a file seen before imports nothing). Real time, except that the
 * client's retry and Retry-After waits pass at once unless `realTime`, as the in-process fake
 * clock's do. Call at the top of a test file: the world registers its hooks there.
 */
export function fleetAdapter(world: ReturnType<typeof fleetTestWorld>): RunnerAdapter {
  let fleet: ReturnType<typeof fleetHarness> | undefined;
  let noted: ReturnType<typeof alertsNoting> | undefined;
  const seen = new Set<string>();
  const f = () => {
    if (!fleet || !noted) throw new Error('fleet adapter not started');
    return { fleet, heard: noted.heard };
  };
  return {
    name: 'fleet',
    async start(settings) {
      const started = world.start();
      noted = alertsNoting(async (summary) => (await started.store.summary(summary.runId)) !== undefined);
      started.worker(2, {
        instantRetries: settings.realTime !== true,
        alerts: noted.alerts,
        ...(settings.client ? { client: settings.client } : {}),
      });
      fleet = started;
      seen.clear();
    },
    faults: (config) => world.faults(config),
    async run(feedFile, dryRun) {
      const { fleet: started, heard } = f();
      const results = await started.enqueue(feedFile, { reimport: seen.has(feedFile), dryRun });
      seen.add(feedFile);
      const enqueued = results.filter((r) => r.enqueued !== false);
      if (enqueued.length !== 1 || !enqueued[0])
        throw new Error(`expected one run of ${feedFile}, got ${JSON.stringify(results)}`);
      const { runId } = enqueued[0];
      const summary = await started.finished(runId);
      // The summary is stored before the after-care and the import job's end: wait for the job.
      await jobDone(started, runId);
      return {
        summary,
        outcomes: (await started.outcomes(runId)).sort(byPosition),
        summaryStoredAtAlert: heard.get(runId),
      };
    },
    sandbox: () => world.sandbox().runtime,
    // The world closes the fleet and resets the sandbox after each test.
    async stop() {
      fleet = undefined;
      noted = undefined;
    },
  };
}
