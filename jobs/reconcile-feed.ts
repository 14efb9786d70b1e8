import * as z from 'zod';

/**
 * What a `reconciles` job carries (src/fleet/reconcile-job.ts): references only, as an import job.
 * The feed is named by its file relative to the worker's feed directory and read by the worker
 * itself; the reconcile id is chosen by whoever enqueues it, so it can wait for the result.
 */
export const ReconcileFeedPayload = z.strictObject({
  reconcileId: z.string().min(1),
  /** The feed file, relative to the worker's feed directory (ERP_BRIDGE_FEEDS_DIR, --feeds). */
  feed: z.string().min(1),
});
export type ReconcileFeedPayload = z.output<typeof ReconcileFeedPayload>;
