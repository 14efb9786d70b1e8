import type { Queue } from 'bullmq';
import type { LoadedFeed } from '../config/load-feed.js';
import type { ReconcileSummary } from '../sync/reconcile/summary.js';
import { newRunId } from '../sync/run-id.js';
import { type AwaitOptions, awaitJob } from './await-job.js';
import { feedRef } from './feed-ref.js';
import type { ReconcileJobData } from './reconcile-job.js';
import type { RedisReconcileStore } from './reconcile-store.js';

/**
 * Enqueues one fleet reconcile of a feed; answers its id (`<feed>-reconcile-<time>-<random>`, the
 * job's id too). The feed file must be in the fleet's feed directory (a ConfigError otherwise).
 */
export async function enqueueReconcile(
  loaded: LoadedFeed,
  deps: { feedsDir: string; reconciles: Queue<ReconcileJobData>; now(): number },
): Promise<string> {
  const feed = feedRef(deps.feedsDir, loaded.file);
  const reconcileId = newRunId(`${loaded.feed.name}-reconcile`, deps.now());
  await deps.reconciles.add('reconcile-feed', { reconcileId, feed }, { jobId: reconcileId });
  return reconcileId;
}

export type ReconcileWait =
  | { summary: ReconcileSummary }
  /** The job failed for good (a refused payload or feed, a bug): BullMQ's reason. */
  | { failed: string };

/** Waits until a worker stored the reconcile's summary, or its job failed for good. */
export async function awaitReconcile(
  reconcileId: string,
  deps: { store: RedisReconcileStore; reconciles: Queue<ReconcileJobData> } & AwaitOptions,
): Promise<ReconcileWait> {
  const waited = await awaitJob(deps.reconciles, reconcileId, () => deps.store.summary(reconcileId), deps);
  return 'done' in waited ? { summary: waited.done } : waited;
}
