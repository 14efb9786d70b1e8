import type { Logger } from 'pino';
import type { LoadedFeed } from '../config/load-feed.js';
import type { ReportFormat } from '../config/report-format.js';
import type { ReportFiles } from '../report-files/file-sink.js';
import { nameOf } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import type { RunAlerts } from '../sync/alerts.js';
import type { IdentityStore } from '../sync/identity/check.js';
import type { RunSummary } from '../sync/report/summary.js';
import type { CursorStore } from '../sync/run/cursor.js';
import type { OpenDatabase, OpenedDatabase } from '../sync/run/database-run.js';
import { type FeedSource, withFeedSource } from '../sync/run/feed-location.js';
import { listRun } from '../sync/run/list-run.js';
import { runAccount } from '../sync/run/open-run.js';
import { type RunDeps, runToEnd } from '../sync/run/run.js';
import { newRunId } from '../sync/run-id.js';
import { processContext } from './memory-dispatch.js';
import { reportedRun } from './reported-run.js';
import { type MemoryPortDeps, memoryPort } from './run-port.js';

export interface RunnerDeps extends MemoryPortDeps {
  logger: Logger;
  reportDir: string;
  /** `--report-format` or ERP_BRIDGE_REPORT_FORMAT: wins over each feed's `report.format`. */
  reportFormat?: ReportFormat;
  /** Judges the finished run and notifies when its feed's health changes. */
  alerts?: RunAlerts;
  /** Where the feeds' identity settings are kept, and `--accept-new-identity`; without it, no check. */
  identity?: { store: IdentityStore; accept: boolean };
  /** Where the run writes (the service's base URL or "embedded sandbox"), named in its summary. */
  target?: string;
  /** Where a remote location's secrets are read (the variables the feed names); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Only these lines of each file (by the name reports give it), the rest not read into the run:
   * `reconcile --repair` syncs the records it found missing or different. Absent: every line.
   */
  onlyLines?: ReadonlyMap<string, ReadonlySet<number>>;
  /**
   * Database feeds (issue 29): where their cursor positions are kept; absent (a sandbox sync),
   * none is loaded or saved, so every run reads the whole table or query.
   */
  cursor?: CursorStore;
  /** Database feeds: read from the start, whatever position is stored (`sync --reimport`). */
  reimport?: boolean;
  /** Database feeds: how their database is opened (the reading side's openDatabase). */
  openDatabase?: OpenDatabase;
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
  return withFeedSource(
    loaded,
    deps.env ?? process.env,
    deps.logger,
    (at) => runFeedAt(at, loaded, dryRun, deps),
    { openDatabase: deps.openDatabase },
  );
}

async function runFeedAt(
  at: FeedSource,
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
  const location = 'location' in at ? at.location : undefined;
  const port = memoryPort(run, { feed, ...(location ? { location } : {}), drained: close }, deps, logger);
  const { identity, onlyLines: only, cursor } = deps;
  const exports =
    'location' in at
      ? await filesOf(at.location, loaded, only, {
          clock: deps.clock,
          logger,
          stop: (stop) => run.stop(stop),
        })
      : await databaseOf(at.database, feed.name, cursor, deps.reimport === true, logger);
  const input = {
    runId,
    account,
    dryRun,
    ...exports,
    ...(identity ? { identity } : {}),
    startedAt,
  };
  const runDeps: RunDeps = {
    logger,
    now: () => deps.clock.now(),
    context: (f) => processContext(deps, f.accountId, logger),
    chunkContext: (chunk) => processContext(deps, chunk.accountId, logger.child({ chunk: chunk.seq })),
    ...(deps.alerts ? { alerts: sideChannel(deps.alerts, logger) } : {}),
    ...(deps.target ? { target: deps.target } : {}),
    ...(cursor ? { cursor } : {}),
    logContext: bindings,
  };
  return { summary: await runToEnd(input, port, runDeps), files };
}

/** A file feed's run: its location's exports that have arrived (listRun), and those that wait. */
async function filesOf(
  location: Location,
  loaded: LoadedFeed,
  only: RunnerDeps['onlyLines'],
  deps: Parameters<typeof listRun>[3],
) {
  const { listed, waiting } = await listRun(location, loaded.sourceGlob, loaded.feed, deps);
  return {
    location,
    paths: listed.listing.ready.map((f) => f.path),
    ...(only ? { lines: (path: string) => only.get(nameOf(location, path)) ?? new Set<number>() } : {}),
    listed,
    waiting,
  };
}

/**
 * A database feed's run: its one export (the table or query by its label, never "no export": a
 * read without new rows is a run of 0 records), read after the stored position unless `reimport`.
 */
async function databaseOf(
  database: OpenedDatabase,
  feed: string,
  cursor: CursorStore | undefined,
  reimport: boolean,
  logger: Logger,
) {
  const after = reimport ? undefined : await cursor?.load(feed);
  if (reimport) logger.info('reimport: reading from the start, whatever cursor position is stored');
  else if (after) logger.info({ cursor: after }, 'reading after the stored cursor position');
  return { paths: [database.label], database: { database, ...(after ? { after } : {}) } };
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
