import type { Logger } from 'pino';
import { syncChunkJob } from '../../jobs/sync-chunk.js';
import type { LoadedFeed } from '../config/load-feed.js';
import { type Lease, tenantKey, type WaitingGate } from '../gate/gate.js';
import type { ReportFiles } from '../report-files/file-sink.js';
import { nameOf } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import { openLocation } from '../sources/locations/open-location.js';
import type { RunAlerts } from '../sync/alerts.js';
import { failedAll } from '../sync/build-outcome.js';
import type { Chunk } from '../sync/chunk.js';
import { processCreateClaims } from '../sync/create-claims.js';
import type { IdentityStore } from '../sync/identity/check.js';
import { type SyncMeter, stopwatch } from '../sync/meter.js';
import type { ChunkContext, SyncClient } from '../sync/ports.js';
import type { RunSummary } from '../sync/report/summary.js';
import { listRun } from '../sync/run/list-run.js';
import { runAccount } from '../sync/run/open-run.js';
import { runToEnd } from '../sync/run/run.js';
import { newRunId } from '../sync/run-id.js';
import type { Clock } from '../time/clock.js';
import type { ProgressListener } from './memory-run.js';
import { memoryPort, reportedRun } from './run-port.js';

export interface RunnerDeps {
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  gate: WaitingGate;
  reportDir: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Judges the finished run and notifies when its feed's health changes. */
  alerts?: RunAlerts;
  /** Hears stored outcomes and chunk durations (metrics). */
  meter?: SyncMeter;
  /** Where the feeds' identity settings are kept, and `--accept-new-identity`; without it, no check. */
  identity?: { store: IdentityStore; accept: boolean };
  /** Where the run writes (the service's base URL or "embedded sandbox"), named in its summary. */
  target?: string;
  /**
   * Aborted (reason: the signal's name) when the user interrupts: reading stops, no new chunk is
   * sent, read-but-unsent records end failed/INTERRUPTED, in-flight chunks settle (until `signal`
   * aborts them at the end of the grace period). The summary says `interrupted`.
   */
  interrupt?: AbortSignal;
  /** Where a remote location's secrets are read (the variables the feed names); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Only these lines of each file (by the name reports give it), the rest not read into the run:
   * `reconcile --repair` syncs the records it found missing or different. Absent: every line.
   */
  onlyLines?: ReadonlyMap<string, ReadonlySet<number>>;
}

export interface FeedRunResult {
  summary: RunSummary;
  files: ReportFiles;
}

/**
 * Runs one feed to completion in this process (no Redis): every export file matching its glob,
 * through the same jobs the fleet executes. Chunks of one tenant run at most `feed.concurrency` at
 * a time (the gate), and the import waits for a slot before reading further, so memory stays flat.
 */
export async function runFeed(loaded: LoadedFeed, dryRun: boolean, deps: RunnerDeps): Promise<FeedRunResult> {
  const location = openLocation(loaded.feed.source.location, deps.env ?? process.env, {
    onProblem: (p) =>
      deps.logger.warn(
        { feed: loaded.feed.name, glob: loaded.sourceGlob, path: p.path },
        `export file left out: ${p.problem}`,
      ),
  });
  try {
    return await runFeedAt(location, loaded, dryRun, deps);
  } finally {
    await location.close();
  }
}

async function runFeedAt(
  location: Location,
  loaded: LoadedFeed,
  dryRun: boolean,
  deps: RunnerDeps,
): Promise<FeedRunResult> {
  const startedAt = deps.clock.now();
  // The account first: the gate, the chunks, the summary and the logs all name its id.
  const account = await runAccount(loaded.feed, deps.client, deps.signal);
  const { feed } = account;
  const runId = newRunId(feed.name, startedAt);
  const bindings = { runId, feed: feed.name, tenant: feed.accountId };
  const logger = deps.logger.child(bindings);
  const { run, files, close } = await reportedRun(runId, feed, dryRun, deps);
  const { meter } = deps;

  // The tenant's context; creates of one (account, externalId), the target bank account too, are
  // serialised across the runs of this process.
  const contextOf = (accountId: number, log: Logger): ChunkContext => ({
    client: deps.client,
    clock: deps.clock,
    logger: log,
    accountId,
    signal: deps.signal,
    claims: processCreateClaims,
  });
  const chunkCtx = (chunk: Chunk) => contextOf(chunk.accountId, logger.child({ chunk: chunk.seq }));
  const { interrupt } = deps;
  const interrupted = () => interrupt?.aborted === true;
  const notSent = async (chunk: Chunk) => {
    const outcomes = failedAll(chunk.records, {
      code: 'INTERRUPTED',
      message: `not sent: the run was interrupted (${String(interrupt?.reason)}); the next run sends it`,
    });
    await run.report.record(outcomes);
    return outcomes;
  };
  // Waiting for a slot ends on an interrupt too: those records are then not sent.
  const slotSignal = AbortSignal.any([interrupt, deps.signal].filter((s) => s !== undefined));
  // Where chunks wait (the memory gate) and run (here): the chunk's execution, once it holds its slot.
  const dispatch = async (chunk: Chunk, running: (task: Promise<void>) => void): Promise<void> => {
    if (interrupted()) {
      await notSent(chunk);
      return;
    }
    let lease: Lease;
    try {
      lease = await deps.gate.acquire(tenantKey(chunk.accountId), feed.concurrency, slotSignal);
    } catch (error) {
      if (!interrupted()) throw error;
      await notSent(chunk);
      return;
    }
    const ctx = chunkCtx(chunk);
    const synced = syncChunkJob.run(chunk, {
      ...ctx,
      run,
      // The shared client's lines (retries, alerts) carry the chunk too (log-context.ts).
      logContext: { chunk: chunk.seq },
      elapsed: stopwatch(),
      meter,
      // Past the grace period of an interrupt its requests were aborted: not sent (or not
      // confirmed), which the next run's existence check settles.
      takeOver: async () => (interrupted() && deps.signal?.aborted ? notSent(chunk) : undefined),
    });
    running(synced.then(() => undefined).finally(() => lease.release()));
  };
  const { identity } = deps;
  const port = memoryPort(run, dispatch, {
    location,
    ...(interrupt ? { interrupt } : {}),
    ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
    ...(identity ? { identity: { store: identity.store, feed: feed.name } } : {}),
    drained: close,
  });
  const { listed, waiting } = await listRun(location, loaded.sourceGlob, feed, {
    clock: deps.clock,
    logger,
    stop: (stop) => run.stop(stop),
  });
  const only = deps.onlyLines;
  const summary = await runToEnd(
    {
      runId,
      account,
      dryRun,
      location,
      paths: listed.listing.ready.map((f) => f.path),
      ...(only ? { lines: (path: string) => only.get(nameOf(location, path)) ?? new Set<number>() } : {}),
      listed,
      ...(identity ? { identity } : {}),
      startedAt,
      waiting,
    },
    port,
    {
      logger,
      now: () => deps.clock.now(),
      context: (f) => contextOf(f.accountId, logger),
      chunkContext: chunkCtx,
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.alerts ? { alerts: sideChannel(deps.alerts, logger) } : {}),
      ...(deps.target ? { target: deps.target } : {}),
      logContext: bindings,
    },
  );
  return { summary, files };
}

/**
 * Notices are a side channel: a state file that cannot be written must not fail the sync (the
 * fleet's finishing job fails instead, and its retry judges the run again).
 */
function sideChannel(alerts: RunAlerts, logger: Logger): RunAlerts {
  return {
    runFinished: (summary, run) =>
      alerts
        .runFinished(summary, run)
        .catch((error: unknown) =>
          logger.error({ err: error }, "could not judge the feed's health; no alert sent"),
        ),
    close: (waitMs) => alerts.close(waitMs),
  };
}
