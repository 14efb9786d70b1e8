import type { Logger } from 'pino';
import type { Feed } from '../../config/feed.js';
import { KINDS } from '../../kinds/registry.js';
import { type FormatReport, settleReport } from '../../sources/format-report.js';
import type { Location } from '../../sources/locations/location.js';
import type { RunAlerts } from '../alerts.js';
import type { ChunkContext } from '../ports.js';
import { buildSummary, type ReadFile, type ReportedFile, type RunSummary } from '../report/summary.js';
import { advanceCursor } from './advance-cursor.js';
import { careForFiles } from './after-care.js';
import type { CursorRange, CursorStore } from './cursor.js';
import type { EndPort } from './run-port.js';

/** A file the run read, as the location names it and as the summary reports it. */
export interface FinishedFile {
  /** The path the location takes (after-care). */
  path: string;
  /** The summary's entry, but for what the format reported of the file (settled here). */
  reported: ReadFile;
  /** What the format's reading reported of the file; absent: nothing. */
  report?: FormatReport;
  /** A database read: the cursor range it covered (advance-cursor.ts). */
  cursor?: CursorRange;
}

export interface FinishInput {
  runId: string;
  feed: Feed;
  dryRun: boolean;
  startedAt: number;
  files: readonly FinishedFile[];
  /** The user interrupted the run: the files' reports not acted on, no after-care, not judged. */
  interrupted?: RunSummary['interrupted'];
  waiting?: RunSummary['waiting'];
  noFile?: string;
  /** A retry run of failed lines (the feed alerts neither count it as a recent run). */
  retry?: boolean;
}

export interface FinishDeps {
  logger: Logger;
  now(): number;
  /** The tenant's client, for what the kind does with the files' reports (KindDefinition.settles). */
  context: ChunkContext;
  alerts?: RunAlerts;
  /** Where the run's exports lie: the feed's `afterRun` is done there. Absent: no after-care. */
  location?: Location;
  /** Where the run wrote (the service's base URL or "embedded sandbox"), named in its summary. */
  target?: string;
  /** A database feed: where its cursor position is kept (advanced once the run went through). */
  cursor?: CursorStore;
}

/**
 * The run's end, once every chunk has settled, in one order for every runner: the files' reports
 * settled by the kind, the tally over the stored outcomes, the check that every record read is accounted
 * for, a database feed's cursor advanced (advance-cursor.ts), the summary stored, then the feed
 * alerts, then the files' after-care, then the "run finished" line.
 *
 * A replayed finish (the fleet's job died after storing the summary) takes the stored summary and
 * does what is still owed: the alerts, once (the port notes they judged the run; between judging
 * and noting, the health store's atomic swap keeps a second judgment of the same run silent), and
 * the after-care (a file already moved or deleted is left alone).
 */
export async function finishRun(input: FinishInput, port: EndPort, deps: FinishDeps): Promise<RunSummary> {
  const stored = await port.storedSummary();
  if (stored) {
    await judge(stored, input, port, deps);
    await careForFiles(input, stored, { retryOwed: await port.retryOwed?.(stored), replayed: true }, deps);
    // Saved before the summary was stored; saving the same position again is harmless.
    await advanceCursor(input, stored, deps);
    return stored;
  }
  const { logger } = deps;
  const stop = await port.run.stopReason();
  const notApplied = input.interrupted
    ? 'the run was interrupted'
    : stop
      ? `the run stopped (${stop.code})`
      : undefined;
  // The records are settled: the kind may act on what the files reported now (KindDefinition.settles;
  // a replay before the summary is stored acts again, so what a kind does there must be safe to
  // repeat).
  const settler = KINDS[input.feed.kind].settles?.(input.feed, input.dryRun, deps.context);
  const files: ReportedFile[] = [];
  for (const file of input.files)
    files.push({ ...file.reported, ...(await settleReport(file.report ?? {}, settler, notApplied)) });
  const settled = await port.settled();
  const summary = buildSummary({
    runId: input.runId,
    feed: input.feed,
    dryRun: input.dryRun,
    startedAt: input.startedAt,
    finishedAt: deps.now(),
    files,
    tally: settled.tally,
    ...(stop ? { stop } : {}),
    wouldSend: await port.wouldSendCount(),
    ...(deps.target ? { target: deps.target } : {}),
    ...(input.interrupted ? { interrupted: input.interrupted } : {}),
    ...(input.waiting ? { waiting: input.waiting } : {}),
    ...(input.noFile ? { noFile: input.noFile } : {}),
  });
  const records = files.reduce((sum, f) => sum + f.records, 0);
  const accounted = settled.tally.total() + (summary.wouldSend ?? 0);
  if (accounted !== records)
    logger.error(
      { alert: true, records, accounted },
      'records without an outcome: the report does not account for every source record',
    );
  // A database feed's position moves with its outcomes stored and before its summary: a run whose
  // summary is there (what `finished`, `runs` and the next enqueue see) has its position saved, so
  // the next run reads after it. A finish that dies in between saves the same position again.
  await advanceCursor(input, summary, deps);
  // Only now, with the outcomes and the summary stored, is the run judged and its files moved: a
  // file moved before could not be read again by the run that has to repeat its records.
  await port.storeSummary(summary);
  await judge(summary, input, port, deps);
  const retryOwed = input.dryRun ? undefined : await port.retryOwed?.(summary, settled.failedLines);
  await careForFiles(input, summary, { retryOwed, failedLines: settled.failedLines }, deps);
  logger.info(
    {
      state: summary.state,
      counts: summary.counts,
      durationMs: summary.durationMs,
      ...(retryOwed !== undefined ? { retryOwed } : {}),
    },
    'run finished',
  );
  if (retryOwed === false && summary.counts.failed > 0)
    logger.error(
      { alert: true, failed: summary.counts.failed },
      'records stay failed after every retry run (dead letter); see the run report',
    );
  return summary;
}

/** The feed alerts judge the run once; an interrupted run says nothing of the feed's health. */
async function judge(summary: RunSummary, input: FinishInput, port: EndPort, deps: FinishDeps) {
  if (!deps.alerts || input.interrupted || !(await port.alertsOwed())) return;
  await deps.alerts.runFinished(summary, { retry: input.retry === true });
  await port.alertsJudged();
}
