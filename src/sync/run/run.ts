import type { Feed } from '../../config/feed.js';
import { type LogBindings, withLogContext } from '../../logging/log-context.js';
import type { Location } from '../../sources/locations/location.js';
import type { RunAlerts } from '../alerts.js';
import type { FeedAccount } from '../feed-account.js';
import type { RunSummary } from '../report/summary.js';
import { type DatabaseRun, databaseOpener } from './database-run.js';
import { type FinishDeps, finishRun } from './finish-run.js';
import type { Listed } from './list-run.js';
import { type OpenDeps, type OpenInput, openRun } from './open-run.js';
import { exportOpener, type FileRead, finishedFile, readFiles } from './read-run.js';
import type { RunPort } from './run-port.js';

/**
 * A run as every runner starts it: the feed's account (runAccount), its export files, and what
 * the runner listed. The one shell of a run: open (open-run.ts), read (read-run.ts), end
 * (finish-run.ts), through the runner's RunPort.
 */
export interface RunInput {
  runId: string;
  account: FeedAccount<Feed>;
  dryRun: boolean;
  /** Where the exports lie (the feed's location, open for the run); absent for a database feed. */
  location?: Location;
  /**
   * A database feed (issue 29): its database and the position the run reads after. Its run has
   * one export, `paths` = [the database's label], read through databaseOpener.
   */
  database?: DatabaseRun;
  /** The run's export files, as the location takes them. */
  paths: readonly string[];
  /** Only these lines of a file (a retry run, `reconcile --repair`); absent: every line. */
  lines?: (path: string) => ReadonlySet<number>;
  /** What sync listed (the no-file verdict); a fleet job names its file. */
  listed?: Listed;
  identity?: OpenInput['identity'];
}

/** What the run's end adds: when it started, what waits, whether it is a retry run. */
export interface EndInput extends RunInput {
  startedAt: number;
  waiting?: RunSummary['waiting'];
  /** A retry run of failed lines (the feed alerts neither count it as a recent run). */
  retry?: boolean;
}

export interface RunDeps
  extends Omit<OpenDeps, 'logger'>,
    Pick<FinishDeps, 'logger' | 'now' | 'target' | 'cursor'> {
  alerts?: RunAlerts;
  /** Added to every line logged while the files are read (log-context.ts); absent: none. */
  logContext?: LogBindings;
}

/** What the reading left for the run's end: serialisable (the fleet keeps each file's `read`). */
export interface RunRead {
  files: FileRead[];
  noFile?: string;
}

/** The run's first part: opened (its checks, its stop), then its files read, chunks handed to the port. */
export async function readRun(input: RunInput, port: RunPort, deps: RunDeps): Promise<RunRead> {
  const { account, dryRun, paths, identity, listed } = input;
  const open = openerOf(input);
  const { prepare, predict, noFile } = await openRun(
    { account, dryRun, files: paths, open, ...(listed ? { listed } : {}), ...(identity ? { identity } : {}) },
    port,
    deps,
  );
  const read = () =>
    readFiles(paths, { runId: input.runId, feed: account.feed, dryRun, open }, port, {
      logger: deps.logger,
      prepare,
      predict,
    });
  const files = await (deps.logContext ? withLogContext(deps.logContext, read) : read());
  return { files, ...(noFile ? { noFile } : {}) };
}

/** How the run reads its exports: its database's rows, or its files through its location. */
function openerOf(input: RunInput) {
  if (input.database) return databaseOpener(input.database);
  if (!input.location) throw new Error('a run needs its location or its database');
  return exportOpener(input.location, input.lines);
}

/** The run's end, once every chunk handed over has settled (finish-run.ts). */
export function endRun(input: EndInput, read: RunRead, port: RunPort, deps: RunDeps): Promise<RunSummary> {
  const { feed } = input.account;
  const interrupted = port.interrupted?.(input.paths, read.files);
  return finishRun(
    {
      runId: input.runId,
      feed,
      dryRun: input.dryRun,
      startedAt: input.startedAt,
      files: read.files.map((r) => finishedFile(r.path, r.file, r.read)),
      ...(interrupted ? { interrupted } : {}),
      ...(input.waiting ? { waiting: input.waiting } : {}),
      ...(read.noFile ? { noFile: read.noFile } : {}),
      ...(input.retry !== undefined ? { retry: input.retry } : {}),
    },
    port,
    {
      logger: deps.logger,
      now: deps.now,
      context: deps.context(feed),
      ...(deps.alerts ? { alerts: deps.alerts } : {}),
      ...(input.location ? { location: input.location } : {}),
      ...(deps.target ? { target: deps.target } : {}),
      ...(deps.cursor ? { cursor: deps.cursor } : {}),
    },
  );
}

/** A run in one execution (in process): read, wait for every chunk (the port's drain), end. */
export async function runToEnd(input: EndInput, port: RunPort, deps: RunDeps): Promise<RunSummary> {
  const read = await readRun(input, port, deps);
  await port.drain?.();
  return endRun(input, read, port, deps);
}
