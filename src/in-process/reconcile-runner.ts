import type { LoadedFeed } from '../config/load-feed.js';
import { ReconcileFileSink, type ReconcileFiles } from '../report-files/reconcile-files.js';
import type { ReconcileSummary } from '../sync/reconcile/summary.js';
import { withFeedSource } from '../sync/run/feed-location.js';
import { type ReconcileRunDeps, reconcileRun } from '../sync/run/reconcile-run.js';

export interface ReconcileDeps extends ReconcileRunDeps {
  reportDir: string;
  /** Where a remote location's secrets are read; default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface ReconcileRun {
  summary: ReconcileSummary;
  files: ReconcileFiles;
  /** Lines of records missing or different, per file as reports name it: what `--repair` syncs. */
  repair: Map<string, Set<number>>;
}

/**
 * `erp-bridge reconcile` in this process: the core's reconcile (reconcileRun) on the feed's
 * location or database, its lines and summary written to a report folder (the fleet's reconcile job keeps
 * them in Redis).
 */
export async function reconcileFeed(loaded: LoadedFeed, deps: ReconcileDeps): Promise<ReconcileRun> {
  const run = await withFeedSource(loaded, deps.env ?? process.env, deps.logger, (at) =>
    reconcileRun(at, loaded, deps, (id) => ReconcileFileSink.create(deps.reportDir, id)),
  );
  return { summary: run.summary, files: run.report.files, repair: run.repair };
}
