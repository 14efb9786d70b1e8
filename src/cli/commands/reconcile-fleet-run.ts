import type { Logger } from 'pino';
import { ConfigError } from '../../config/errors.js';
import type { LoadedFeed } from '../../config/load-feed.js';
import { feedRef } from '../../fleet/feed-ref.js';
import { enqueueFeed } from '../../fleet/producer.js';
import { awaitReconcile, enqueueReconcile } from '../../fleet/reconcile-producer.js';
import { awaitRun, linesToRepair } from '../../fleet/reconcile-repair.js';
import type { ReconcileSummary } from '../../sync/reconcile/summary.js';
import { checkReconcilable } from '../../sync/run/reconcile-run.js';
import { countsText } from '../counts-text.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { type FleetWiring, loadFleetFeeds, withFeedsDir, withFleet } from '../fleet.js';
import { cliLogger, type LogFormat } from '../log-output.js';
import { reconcileExitCode, screen } from '../reconcile-screen.js';
import { unchangedText } from '../repair-text.js';

export interface ReconcileFleetFlags {
  repair: boolean;
  /** The fleet's feed directory (default ERP_BRIDGE_FEEDS_DIR, else config/feeds). */
  feeds?: string;
  /** false (`--no-wait`): print the reconcile ids and return once enqueued. */
  wait: boolean;
  logFormat?: LogFormat;
  logLevel: string;
}

/**
 * `erp-bridge reconcile --fleet`: one `reconciles` job per feed (REDIS_URL), run by a worker with
 * its PARTNER_* credentials; waits for each and prints the same one-screen summary and exit code as
 * the in-process reconcile. The lines are in Redis: `erp-bridge report <reconcileId>`. `--repair`
 * enqueues an import run of only the missing and different lines per export, waits for it, and
 * reconciles again.
 */
export async function reconcileFleet(feedFiles: string[], flags: ReconcileFleetFlags): Promise<ExitCode> {
  const format: LogFormat = flags.logFormat ?? 'text';
  const logger = cliLogger(format, flags.logLevel);
  const print = (text: string) => {
    if (format === 'text') process.stdout.write(text);
  };
  const feeds = await loadFleetFeeds(feedFiles, (loaded) => {
    if (flags.repair && !flags.wait)
      throw new ConfigError('reconcile --repair --fleet waits for the reconcile it repairs: drop --no-wait');
    checkReconcilable(loaded);
  });
  if (typeof feeds === 'number') return feeds;
  return withFleet(
    logger,
    'reconcile',
    async (fleet) => {
      const reconcile = (loaded: LoadedFeed) =>
        enqueueReconcile(loaded, {
          feedsDir: fleet.config.feedsDir,
          reconciles: fleet.queues.reconciles,
          now: Date.now,
        });
      // Every feed file in the feed directory before any is enqueued (exit 2 naming the first that is not).
      for (const loaded of feeds) feedRef(fleet.config.feedsDir, loaded.file);
      // All enqueued first: workers compare the feeds side by side while this waits for each in turn.
      const enqueued: [LoadedFeed, string][] = [];
      for (const loaded of feeds) enqueued.push([loaded, await reconcile(loaded)]);
      let code: ExitCode = EXIT.OK;
      for (const [loaded, first] of enqueued) {
        if (!flags.wait) {
          process.stdout.write(`${loaded.feed.name}: enqueued as reconcile ${first}\n`);
          continue;
        }
        let reconcileId = first;
        let summary = await waitFor(fleet, loaded, reconcileId);
        if (summary) print(screen(summary, `report: erp-bridge report ${reconcileId}`));
        if (summary && flags.repair && summary.state === 'differences') {
          await repair(fleet, loaded, reconcileId, { print, logger });
          reconcileId = await reconcile(loaded);
          summary = await waitFor(fleet, loaded, reconcileId);
          if (summary)
            print(`after the repair:\n${screen(summary, `report: erp-bridge report ${reconcileId}`)}`);
        }
        if (summary && format === 'json') logger.info({ summary }, 'reconcile finished');
        code = Math.max(code, summary ? reconcileExitCode(summary) : EXIT.UNEXPECTED_ERROR) as ExitCode;
      }
      return code;
    },
    withFeedsDir(process.env, flags.feeds),
  );
}

/** The reconcile's summary; undefined (said on stderr) when its job failed for good. */
async function waitFor(
  fleet: FleetWiring,
  loaded: LoadedFeed,
  reconcileId: string,
): Promise<ReconcileSummary | undefined> {
  const done = await awaitReconcile(reconcileId, {
    store: fleet.reconciles,
    reconciles: fleet.queues.reconciles,
  });
  if ('summary' in done) return done.summary;
  process.stderr.write(`erp-bridge: ${loaded.feed.name}: reconcile ${reconcileId} failed: ${done.failed}\n`);
  return undefined;
}

/** One import run per export with lines missing or different, of only those lines; waited for. */
async function repair(
  fleet: FleetWiring,
  loaded: LoadedFeed,
  reconcileId: string,
  { print, logger }: { print: (text: string) => void; logger: Logger },
): Promise<void> {
  const runs = await enqueueFeed(
    loaded,
    { repair: await linesToRepair(fleet.reconciles, reconcileId), repairOf: reconcileId },
    {
      feedsDir: fleet.config.feedsDir,
      registry: fleet.registry,
      store: fleet.store,
      imports: fleet.queues.imports,
      logger,
      now: Date.now,
    },
  );
  for (const run of runs) {
    const done = await awaitRun(run.runId, { store: fleet.store, imports: fleet.queues.imports });
    if ('failed' in done) {
      print(`  repair run ${run.runId} failed: ${done.failed}\n`);
      continue;
    }
    const unchanged = await unchangedText(loaded.feed.kind, fleet.store.outcomesInOrder(run.runId));
    print(
      `  repair: ${done.summary.state}: ${countsText(done.summary)}\n${unchanged}  repair run: ${run.runId} (erp-bridge report ${run.runId})\n`,
    );
  }
}
