import type { Logger } from 'pino';
import type { RunSummary } from '../report/summary.js';
import type { CursorRange, CursorStore } from './cursor.js';

/** The run as the cursor's advance sees it. */
interface AdvancedRun {
  feed: { name: string };
  files: readonly { cursor?: CursorRange }[];
  dryRun: boolean;
  interrupted?: unknown;
}

/**
 * A database feed's after-care (issue 29): once the run's outcomes are stored, before its summary,
 * the stored cursor position moves to where its read ended, so the next run reads only rows after it.
 * Only a run that went through: not a dry run, not interrupted, not stopped, and no record
 * `failed` (a failed record is read again by the next run, which must start before it; a rejected
 * one is final, so the position passes it: a person's fix changes the row's cursor column, which
 * brings it after the position). A run that read no row leaves the position where it was.
 * Unlike a file's after-care a failure here is thrown: the run's finish fails (the fleet's
 * finishing job retries it) and the run's rows are read again, which the existence checks make
 * harmless, whereas a position said to be saved and not saved would never be noticed.
 */
export async function advanceCursor(
  run: AdvancedRun,
  summary: RunSummary,
  deps: { cursor?: CursorStore | undefined; logger: Logger },
): Promise<void> {
  const { cursor, logger } = deps;
  const to = run.files.find((f) => f.cursor?.to !== undefined)?.cursor?.to;
  if (!cursor || !to) return;
  const held = run.dryRun
    ? 'a dry run'
    : run.interrupted
      ? 'the run was interrupted'
      : summary.stopReason
        ? `the run stopped (${summary.stopReason.code})`
        : summary.counts.failed > 0
          ? `${summary.counts.failed} records failed`
          : undefined;
  if (held) {
    if (!run.dryRun)
      logger.info({ cursor: to }, `cursor position kept: ${held}; the next run reads these rows again`);
    return;
  }
  await cursor.save(run.feed.name, to);
  logger.info({ cursor: to }, 'cursor position advanced');
}
