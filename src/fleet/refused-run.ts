import { buildSummary, RunTally } from '../sync/report/summary.js';
import { JobRefused } from './feed-ref.js';
import type { RedisRunStore } from './run-store.js';

/** The stop of a run whose import job the worker refused for good (feed-ref.ts). */
const JOB_REFUSED = 'JOB_REFUSED';

/**
 * Ends the run of an import job the worker refused (its feed file no longer loads, the file is
 * not an export of the feed): stopped, exit 2 like an invalid feed file, nothing read or sent. A
 * feed's fault ends its run with its code and summary (issue 27.2); without this the run the
 * producer recorded would stay "running" in `runs` for good. A job naming no recorded run (made by
 * hand) has no run to end.
 */
async function endRefusedRun(
  store: RedisRunStore,
  runId: string,
  refusal: JobRefused,
  at: { now: number; target?: string },
): Promise<void> {
  const meta = await store.meta(runId);
  if (!meta) return;
  const stop = { code: JOB_REFUSED, message: refusal.message, exitCode: 2 as const };
  await store.stop(runId, stop);
  await store.finish(
    buildSummary({
      runId,
      feed: { name: meta.feed, kind: meta.kind, accountId: meta.accountId },
      dryRun: meta.dryRun,
      startedAt: Date.parse(meta.startedAt),
      finishedAt: at.now,
      files: [{ path: meta.file, sha256: meta.sha256, records: 0 }],
      tally: new RunTally(),
      stop,
      ...(at.target ? { target: at.target } : {}),
    }),
  );
}

/**
 * `step`'s result; when it refuses the job (JobRefused), the run `runId` is ended first, then the
 * refusal thrown. `runId` undefined: no run to end (the refusal is only thrown).
 */
export async function endedIfRefused<T>(
  runId: string | undefined,
  deps: { store: RedisRunStore; target?: string },
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof JobRefused && runId !== undefined)
      await endRefusedRun(deps.store, runId, error, {
        now: Date.now(),
        ...(deps.target ? { target: deps.target } : {}),
      });
    throw error;
  }
}
