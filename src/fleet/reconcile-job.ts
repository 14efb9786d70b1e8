import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { ReconcileFeedPayload } from '../../jobs/reconcile-feed.js';
import { withLogContext } from '../logging/log-context.js';
import type { SyncClient } from '../sync/ports.js';
import type { ReconcileSummary } from '../sync/reconcile/summary.js';
import { withFeedSource } from '../sync/run/feed-location.js';
import { notReconcilable, reconcileRun } from '../sync/run/reconcile-run.js';
import type { Clock } from '../time/clock.js';
import { JobRefused, resolveFeedRef } from './feed-ref.js';
import type { RedisReconcileStore } from './reconcile-store.js';
import { refusedUnlessValid, releaseToAnotherWorker } from './worker-steps.js';

export type ReconcileJobData = ReconcileFeedPayload;

export interface ReconcileJobDeps {
  /** The worker's own feed directory: where the feed a job names is read from. */
  feedsDir: string;
  store: RedisReconcileStore;
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal;
  /** The service this worker reads (its base URL), named in the summary. */
  target?: string;
  /** Where remote locations' secrets are read; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The `reconciles` queue's handler: the core's reconcile (reconcileRun), its lines and
 * summary stored in Redis instead of a report folder. A payload that does not parse, a feed
 * reference outside the feed directory or a feed reconcile does not support fail the job for good.
 */
export function reconcileProcessor(deps: ReconcileJobDeps) {
  return async (
    job: Job<ReconcileJobData>,
    token?: string,
  ): Promise<Pick<ReconcileSummary, 'state' | 'counts'>> => {
    const data = refusedUnlessValid({ name: 'reconcile-feed', payload: ReconcileFeedPayload }, job.data);
    const loaded = await resolveFeedRef(deps.feedsDir, data.feed);
    const why = notReconcilable(loaded.feed);
    if (why) throw new JobRefused(why);
    const bindings = { reconcileId: data.reconcileId, feed: loaded.feed.name, job: String(job.id) };
    const logger = deps.logger.child({ job: String(job.id) });
    try {
      const { summary } = await withFeedSource(loaded, deps.env ?? process.env, logger, (at) =>
        withLogContext(bindings, () =>
          reconcileRun(
            at,
            loaded,
            {
              client: deps.client,
              clock: deps.clock,
              logger,
              reconcileId: data.reconcileId,
              ...(deps.signal ? { signal: deps.signal } : {}),
              ...(deps.target ? { target: deps.target } : {}),
            },
            // Cut short by the worker shutting down, it stores no summary and is released below.
            (id) => deps.store.report(id, deps.signal),
          ),
        ),
      );
      return { state: summary.state, counts: summary.counts };
    } catch (error) {
      if (!deps.signal?.aborted) throw error;
      // Another worker runs the comparison again from the start.
      return releaseToAnotherWorker(job, token, logger, 'reconcile');
    }
  };
}
