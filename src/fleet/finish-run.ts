import type { Logger } from 'pino';
import type { Feed } from '../config/feed.js';
import { nameOf } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import type { RunAlerts } from '../sync/alerts.js';
import type { ChunkContext } from '../sync/ports.js';
import { RunTally } from '../sync/report/summary.js';
import { finishRun, type RunEndPort } from '../sync/run/finish-run.js';
import { finishedFile, type ReadResult } from '../sync/run/read-run.js';
import type { FileRegistry } from './file-registry.js';
import type { RedisRunStore } from './run-store.js';

interface FinishDeps {
  store: RedisRunStore;
  registry: FileRegistry;
  maxRetryRuns: number;
  /** Notifies when the run changes its feed's health (src/ops/alerts). */
  alerts?: RunAlerts;
  /** The service the run wrote to, named in its summary (and so in `runs`). */
  target?: string;
  /** The tenant's client, for what the run does once its records are settled (statement balances). */
  context: ChunkContext;
  /** Where the run's export lives: the feed's `afterRun` is done there once the run is stored. */
  location?: Location;
}

interface FinishData {
  feed: Feed;
  file: string;
  dryRun: boolean;
  retryRun?: number;
  onlyLines?: number[];
}

/**
 * Ends a fleet run once every chunk has finished, through the core's run end
 * (sync/run/finish-run.ts) with the run as Redis keeps it: counts and control totals over the
 * stored outcomes. Lines that failed (transient: 500s exhausted, ambiguous writes, a stopped run)
 * are owed a retry on the feed's next tick, up to `maxRetryRuns` runs; after that they stay failed
 * in the report (dead letter). Rejected lines are not retried: their data must change. The job may
 * run again after a crash: the store keeps the first summary and whether the alerts judged it.
 */
export async function finishFleetRun(
  runId: string,
  data: FinishData,
  read: ReadResult,
  deps: FinishDeps,
  logger: Logger,
): Promise<void> {
  const { store } = deps;
  const meta = await store.meta(runId);
  await finishRun(
    {
      runId,
      feed: data.feed,
      dryRun: data.dryRun,
      startedAt: meta ? Date.parse(meta.startedAt) : Date.now(),
      files: [finishedFile(data.file, deps.location ? nameOf(deps.location, data.file) : data.file, read)],
      retry: data.onlyLines !== undefined,
    },
    fleetRunEnd(runId, data, deps),
    {
      logger,
      now: Date.now,
      context: deps.context,
      ...(deps.alerts ? { alerts: deps.alerts } : {}),
      ...(deps.location ? { location: deps.location } : {}),
      ...(deps.target ? { target: deps.target } : {}),
    },
  );
}

/** The run's end as the fleet keeps it: the Redis run store, and the file registry's retry runs. */
function fleetRunEnd(runId: string, data: FinishData, deps: FinishDeps): RunEndPort {
  const { store } = deps;
  return {
    storedSummary: () => store.summary(runId),
    // One pass over the stored outcomes: the tally and the lines owed a retry.
    settled: async () => {
      const tally = new RunTally();
      const failedLines = new Map<string, number[]>();
      for await (const outcome of store.outcomes(runId)) {
        tally.add(outcome);
        if (outcome.outcome !== 'failed') continue;
        const lines = failedLines.get(outcome.file);
        if (lines) lines.push(outcome.line);
        else failedLines.set(outcome.file, [outcome.line]);
      }
      return { tally, failedLines };
    },
    stopReason: () => store.stopReason(runId),
    wouldSendCount: () => store.wouldSendCount(runId),
    storeSummary: (summary) => store.finish(summary),
    alertsOwed: async () => !(await store.judged(runId)),
    alertsJudged: () => store.noteJudged(runId),
    // A file owed a retry run stays where it is until the last retry: that run reads it again.
    retryOwed: async (summary, failedLines) => {
      const retryRun = data.retryRun ?? 0;
      if (!failedLines) return summary.counts.failed > 0 && retryRun < deps.maxRetryRuns;
      const lines = [...failedLines.values()].flat().sort((a, b) => a - b);
      return deps.registry.oweRetry(data.feed.name, data.file, runId, lines, retryRun, deps.maxRetryRuns);
    },
  };
}
