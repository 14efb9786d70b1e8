import { setMaxListeners } from 'node:events';
import { join, relative } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { loadFeedFiles } from '../../config/load-feed.js';
import { loadPartnerConfig, PartnerConfigError } from '../../config/partner-env.js';
import { type ReportFormat, reportFormatOverride } from '../../config/report-format.js';
import { shutdownGraceMs } from '../../fleet/fleet-config.js';
import { MemoryGate } from '../../gate/memory-gate.js';
import { FileCursorStore } from '../../in-process/cursor-file-store.js';
import { FileIdentityStore } from '../../in-process/identity-file-store.js';
import { type FeedRunResult, runFeed } from '../../in-process/runner.js';
import { KINDS } from '../../kinds/registry.js';
import { loadAlertConfig } from '../../ops/alerts/alert-config.js';
import { FeedAlerts } from '../../ops/alerts/feed-alerts.js';
import { FileFeedHealthStore } from '../../ops/alerts/file-health-store.js';
import { isDatabaseSource, positionOf } from '../../sources/formats/registry.js';
import { openLocation } from '../../sources/locations/open-location.js';
import type { RunSummary } from '../../sync/report/summary.js';
import { systemClock } from '../../time/clock.js';
import { allSettled } from '../all-settled.js';
import { countsText } from '../counts-text.js';
import { EXIT, type ExitCode, runExitCode, worstExit } from '../exit-codes.js';
import { cliLogger, type LogFormat } from '../log-output.js';
import { ProgressBar, type ProgressDelta } from '../progress.js';
import { checkReportDir } from '../report-dir.js';
import { connectService } from '../service.js';

export interface SyncFlags {
  dryRun: boolean;
  sandbox: boolean;
  reportDir: string;
  reportFormat?: string;
  logFormat?: LogFormat;
  logLevel: string;
  progress: boolean;
  acceptNewIdentity: boolean;
  reimport: boolean;
}

/** The exit code of a finished sync: the worst of its runs. */
export function exitCodeOf(results: readonly Pick<FeedRunResult, 'summary'>[]): ExitCode {
  return worstExit(results.map(({ summary }) => runExitCode(summary)));
}

export async function sync(feedFiles: string[], flags: SyncFlags): Promise<ExitCode> {
  const tty = Boolean(process.stderr.isTTY);
  // Plain lines unless asked for JSON (the issue's contract); a collector passes --log-format json.
  const format: LogFormat = flags.logFormat ?? 'text';
  const logger = cliLogger(format, flags.logLevel);
  let feeds: Awaited<ReturnType<typeof loadFeedFiles>>;
  let alertConfig: ReturnType<typeof loadAlertConfig>;
  let graceMs: number;
  let reportFormat: ReportFormat | undefined;
  try {
    reportFormat = reportFormatOverride(flags.reportFormat, process.env);
    // The target first, before any file is read: without --sandbox the service's settings must be
    // complete (every missing or invalid variable named), never a silent fall-back to a sandbox.
    if (!flags.sandbox) loadPartnerConfig(process.env);
    graceMs = shutdownGraceMs(process.env);
    feeds = await loadFeedFiles(feedFiles);
    alertConfig = loadAlertConfig(process.env);
    await checkReportDir(flags.reportDir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`erp-bridge: ${error.message}\n`);
    if (error instanceof PartnerConfigError)
      process.stderr.write('  (to try erp-bridge without a service: erp-bridge sync --sandbox <feed...>)\n');
    return EXIT.INVALID_CONFIG;
  }
  const gate = new MemoryGate(systemClock);
  let service: Awaited<ReturnType<typeof connectService>>;
  try {
    service = await connectService(process.env, gate, systemClock, logger, {
      embeddedSandbox: flags.sandbox,
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`erp-bridge: ${error.message}\n`);
    return EXIT.INVALID_CONFIG;
  }
  const bar = tty && flags.progress && format === 'text' ? new ProgressBar(process.stderr, 0) : undefined;
  // The bar's total (the exports' sizes, as their locations list them) arrives while the sync
  // already runs: listing the exports is no reason to wait before the first record is sent.
  if (bar)
    for (const { feed, sourceGlob } of feeds) {
      // A database feed's rows are not bytes of a file: its reading adds nothing to the total.
      if (isDatabaseSource(feed.source)) continue;
      const location = openLocation(feed.source.location, process.env);
      void location
        .list(sourceGlob)
        .then((files) => {
          for (const file of files) bar.addTotal(file.size);
        })
        .catch(() => undefined)
        .finally(() => location.close());
    }

  // The feeds' last states live next to their reports, so consecutive syncs notify only on a change.
  // A sandbox run says nothing about the real feed: it neither reads nor changes that state.
  const alerts = flags.sandbox
    ? undefined
    : new FeedAlerts({
        config: alertConfig,
        store: new FileFeedHealthStore(join(flags.reportDir, '.feed-health.json'), logger),
        logger,
      });
  // What the feeds' derived IDs depend on, kept beside their reports like their health. A sandbox
  // run keeps none: it says nothing about the real feed.
  const identityStore = flags.sandbox ? undefined : new FileIdentityStore(flags.reportDir);
  // Database feeds' cursor positions, kept the same way: a sandbox sync reads every row each time
  // and moves no position, so the real feed's next run still reads what the sandbox saw.
  const cursorStore = flags.sandbox ? undefined : new FileCursorStore(flags.reportDir);
  // A first signal stops reading and lets in-flight chunks settle for `graceMs`, then aborts their
  // requests; a second one ends the process at once. Either way the exit code is 128 + signal.
  const interrupt = new AbortController();
  const abort = new AbortController();
  // Every chunk of every feed listens on this one signal (its request, a retry wait): past 10
  // listeners Node would warn of a leak that is not one.
  const inFlight = feeds.reduce((n, { feed }) => n + feed.concurrency + 1, 0);
  setMaxListeners(4 * inFlight + 10, abort.signal);
  let graceTimer: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? EXIT.INTERRUPTED_SIGINT : EXIT.INTERRUPTED_SIGTERM;
    if (interrupt.signal.aborted) {
      process.stderr.write(`erp-bridge: ${signal} again: stopping now without a summary\n`);
      process.exit(code);
    }
    process.stderr.write(
      `erp-bridge: ${signal}: stopping; letting chunks in flight settle (up to ${graceMs / 1000} s), then writing the summary. ${signal} again stops at once.\n`,
    );
    interrupt.abort(signal);
    graceTimer = setTimeout(() => abort.abort(new Error(`${signal}: grace period over`)), graceMs);
    graceTimer.unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const run = (loaded: (typeof feeds)[number]) =>
      runFeed(loaded, flags.dryRun, {
        client: service.client,
        clock: systemClock,
        logger,
        gate,
        reportDir: flags.reportDir,
        ...(reportFormat ? { reportFormat } : {}),
        signal: abort.signal,
        interrupt: interrupt.signal,
        target: service.target,
        ...(alerts ? { alerts } : {}),
        ...(identityStore ? { identity: { store: identityStore, accept: flags.acceptNewIdentity } } : {}),
        ...(cursorStore ? { cursor: cursorStore } : {}),
        reimport: flags.reimport,
        ...(bar ? { onProgress: (delta: ProgressDelta) => bar.advance(delta) } : {}),
      });
    // The partner's own feeds (accounts) first: users and categories of an account provisioned in
    // the same sync name it by externalId, so it must exist before they run.
    const partner = feeds.filter(({ feed }) => KINDS[feed.kind].scope === 'partner');
    const ranFirst = new Map(
      await allSettled(partner.map(async (loaded) => [loaded, await run(loaded)] as const)),
    );
    const results = await allSettled(feeds.map((loaded) => ranFirst.get(loaded) ?? run(loaded)));
    bar?.finish();
    // Where reading stopped, in the unit of the feed's format (lines for CSV and JSON Lines).
    const positions = new Map(feeds.map(({ feed }) => [feed.name, positionOf(feed.source.format)]));
    const feedFileOf = new Map(feeds.map(({ feed, file }) => [feed.name, file]));
    for (const { summary, files } of results) {
      if (format === 'json') {
        logger.info({ summary, reportDir: files.dir }, 'sync finished');
        continue;
      }
      const c = summary.counts;
      const target = ` (${summary.target ?? service.target})`;
      const line = summary.dryRun
        ? `${summary.feed}: dry run, ${summary.wouldSend ?? 0} would be sent, ${c.rejected} rejected, ${c.skipped} skipped`
        : `${summary.feed}: ${summary.state}: ${countsText(summary)}`;
      const unread = summary.interrupted?.unread
        .map((u) => `\n  not read: ${u.path} after ${positions.get(summary.feed)} ${u.readUpToLine}`)
        .join('');
      const waiting = (summary.waiting ?? []).map((w) => `\n  waiting: ${w.path} (${w.reason})`).join('');
      const noFile = summary.noFile ? `\n  ${summary.noFile}` : '';
      const check = checkHint(summary, feedFileOf.get(summary.feed));
      process.stdout.write(
        `${line}${target}${summary.stopReason ? ` (stopped: ${summary.stopReason.message})` : ''}${unread ?? ''}${waiting}${noFile}${check}${statementLines(summary)}\n  report: ${files.dir}\n`,
      );
    }
    if (interrupt.signal.aborted)
      return interrupt.signal.reason === 'SIGINT' ? EXIT.INTERRUPTED_SIGINT : EXIT.INTERRUPTED_SIGTERM;
    return exitCodeOf(results);
  } finally {
    clearTimeout(graceTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await alerts?.close();
    await service.close();
  }
}

/** The stops that say an export does not read as its feed describes it (its layout, its encoding). */
const READ_AS_CONFIGURED = new Set(['SOURCE_LAYOUT', 'ENCODING_INVALID']);

/**
 * Under a run stopped because an export does not read as its feed says: `erp-bridge check`, which
 * shows per column what was read and rejected, without a service (docs/check.md).
 */
function checkHint(summary: RunSummary, feedFile: string | undefined): string {
  if (!summary.stopReason || !READ_AS_CONFIGURED.has(summary.stopReason.code) || !feedFile) return '';
  return `\n  (to see what each mapped column of the exports holds, without a service: erp-bridge check ${relative(process.cwd(), feedFile) || feedFile})`;
}

/** The statements' arithmetic warnings and balance updates under a run's line (summary.json has all). */
function statementLines(summary: RunSummary): string {
  return summary.files
    .flatMap(({ path, statements }) => {
      if (!statements) return [];
      const more = statements.unbalanced - statements.warnings.length;
      return [
        ...statements.warnings.map((w) => `\n  warning: ${path}:${w.line}: ${w.message}`),
        ...(more > 0 ? [`\n  warning: ${path}: ${more} more statements do not add up (summary.json)`] : []),
        ...statements.balances.map((b) => `\n  balance of ${b.bankAccount}: ${b.message}`),
      ];
    })
    .join('');
}
