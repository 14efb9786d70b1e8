import type { Queue } from 'bullmq';
import { toRepair } from '../sync/reconcile/reconcile.js';
import type { RunSummary } from '../sync/report/summary.js';
import { type AwaitOptions, awaitJob } from './await-job.js';
import type { ImportJobData } from './import-job.js';
import type { RedisReconcileStore } from './reconcile-store.js';
import type { RedisRunStore } from './run-store.js';

/**
 * What `reconcile --repair --fleet` syncs: the lines of the records a stored reconcile found
 * missing or different, per export (named as reports name it), in line order. Extras are never
 * touched (a repair never deletes); duplicate and invalid rows are the exports' to fix.
 */
export async function linesToRepair(
  store: RedisReconcileStore,
  reconcileId: string,
): Promise<Map<string, number[]>> {
  const lines = new Map<string, number[]>();
  for await (const line of store.lines(reconcileId)) {
    if (!toRepair(line)) continue;
    const of = lines.get(line.file) ?? [];
    of.push(line.line);
    lines.set(line.file, of);
  }
  for (const of of lines.values()) of.sort((a, b) => a - b);
  return lines;
}

/** Waits until a run has its summary, or its import job failed for good (its reason). */
export async function awaitRun(
  runId: string,
  deps: { store: RedisRunStore; imports: Queue<ImportJobData> } & AwaitOptions,
): Promise<{ summary: RunSummary } | { failed: string }> {
  const waited = await awaitJob(deps.imports, runId, () => deps.store.summary(runId), deps);
  return 'done' in waited ? { summary: waited.done } : waited;
}
