import type { Logger } from 'pino';
import type { Feed } from '../config/feed.js';
import { careForFile, verdictOf } from '../sources/locations/after-care.js';
import { markerOf } from '../sources/locations/arrival.js';
import { nameOf } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import { afterCareOf, arrivalOf } from '../sources/locations/source-keys.js';
import type { FileEncoding } from '../sources/text-encoding.js';
import type { RunAlerts } from '../sync/alerts.js';
import type { ChunkContext } from '../sync/ports.js';
import type { ReadStatements } from '../sync/report/statement-report.js';
import { buildSummary, type RunSummary, RunTally } from '../sync/report/summary.js';
import { settleStatements } from '../sync/settle-balances.js';
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

/**
 * Writes a fleet run's summary once every chunk has finished: counts and control totals over the
 * stored outcomes. Lines that failed (transient: 500s exhausted, ambiguous writes, a stopped run)
 * are owed a retry on the feed's next tick, up to `maxRetryRuns` runs; after that they stay
 * failed in the report (dead letter). Rejected lines are not retried: their data must change.
 */
export async function finishRun(
  runId: string,
  data: { feed: Feed; file: string; dryRun: boolean; retryRun?: number; onlyLines?: number[] },
  read: {
    records: number;
    sha256: string;
    encoding?: FileEncoding;
    sheet?: string;
    statements?: ReadStatements;
  },
  deps: FinishDeps,
  logger: Logger,
): Promise<void> {
  const stored = await deps.store.summary(runId);
  if (stored) {
    // Finished already (this job ran again): only the after-care may not have happened yet.
    await careForExport(data, stored, deps, logger);
    return;
  }
  const meta = await deps.store.meta(runId);
  // One pass over the stored outcomes: the tally and the lines owed a retry.
  const failedLines: number[] = [];
  const tally = new RunTally();
  for await (const outcome of deps.store.outcomes(runId)) {
    tally.add(outcome);
    if (outcome.outcome === 'failed') failedLines.push(outcome.line);
  }
  const stop = await deps.store.stopReason(runId);
  // The records are settled: the statements' balances may move the accounts now (a replay of
  // this job before the summary is stored applies them again, which changes nothing).
  const statements =
    read.statements &&
    (await settleStatements(
      data.feed,
      read.statements,
      data.dryRun,
      deps.context,
      stop ? `the run stopped (${stop.code})` : undefined,
    ));
  const summary = buildSummary({
    runId,
    feed: data.feed,
    dryRun: data.dryRun,
    startedAt: meta ? Date.parse(meta.startedAt) : Date.now(),
    finishedAt: Date.now(),
    files: [
      {
        path: deps.location ? nameOf(deps.location, data.file) : data.file,
        sha256: read.sha256,
        records: read.records,
        ...(read.encoding ? { encoding: read.encoding } : {}),
        ...(read.sheet !== undefined ? { sheet: read.sheet } : {}),
        ...(statements ? { statements } : {}),
      },
    ],
    tally,
    ...(stop ? { stop } : {}),
    wouldSend: await deps.store.wouldSendCount(runId),
    ...(deps.target ? { target: deps.target } : {}),
  });
  const accounted = tally.total() + (summary.wouldSend ?? 0);
  if (accounted !== read.records)
    logger.error(
      { alert: true, records: read.records, accounted },
      'records without an outcome: the report does not account for every source record',
    );
  // Before the summary is stored: should this job die in between, its replay judges the run
  // again, and the state (already swapped) keeps the alert from being raised twice. After it, a
  // replay would return above and the alert would be lost.
  await deps.alerts?.runFinished(summary, { retry: data.onlyLines !== undefined });
  await deps.store.finish(summary);
  const owed = data.dryRun
    ? false
    : await deps.registry.oweRetry(
        data.feed.name,
        data.file,
        runId,
        failedLines.sort((a, b) => a - b),
        data.retryRun ?? 0,
        deps.maxRetryRuns,
      );
  logger.info(
    { state: summary.state, counts: summary.counts, durationMs: summary.durationMs, retryOwed: owed },
    'run finished',
  );
  if (failedLines.length > 0 && !owed && !data.dryRun)
    logger.error(
      { alert: true, failed: failedLines.length },
      'records stay failed after every retry run (dead letter); see the run report',
    );
  await careForExport(data, summary, deps, logger);
}

/**
 * The feed's `afterRun` for the run's file, once the summary is stored (also when a replayed job
 * finds it stored and the file still there). A file owed a retry run stays where it is until the
 * last retry: that run reads it again.
 */
async function careForExport(
  data: { feed: Feed; file: string; dryRun: boolean; retryRun?: number },
  summary: RunSummary,
  deps: FinishDeps,
  logger: Logger,
): Promise<void> {
  const { location } = deps;
  if (!location || data.dryRun) return;
  const retryOwed = summary.counts.failed > 0 && (data.retryRun ?? 0) < deps.maxRetryRuns;
  if (retryOwed) return;
  const verdict = verdictOf(summary.stopReason !== undefined, summary.counts.failed);
  try {
    if (!(await location.stat(data.file))) return; // done by an earlier attempt of this job
    const marker = markerOf(arrivalOf(data.feed.source), data.file);
    const done = await careForFile(location, data.file, afterCareOf(data.feed.source), verdict, marker);
    if (done) logger.info({ file: summary.files[0]?.path ?? data.file, verdict }, `export file ${done}`);
  } catch (error) {
    logger.error({ err: error, file: data.file, verdict }, 'could not move or delete the export file');
  }
}
