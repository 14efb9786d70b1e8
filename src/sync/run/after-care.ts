import type { Logger } from 'pino';
import type { Feed } from '../../config/feed.js';
import { careForFile, verdictOf } from '../../sources/locations/after-care.js';
import { markerOf } from '../../sources/locations/arrival.js';
import type { Location } from '../../sources/locations/location.js';
import { afterCareOf, arrivalOf } from '../../sources/locations/source-keys.js';
import type { RunSummary } from '../report/summary.js';

/** The run as after-care sees it: its feed, and each file by its location path and its report name. */
interface CaredRun {
  feed: Feed;
  files: readonly { path: string; reported: { path: string } }[];
  dryRun: boolean;
  interrupted?: unknown;
}

interface CareState {
  /** A later run reads the file again for its failed lines: it stays where it is. */
  retryOwed: boolean | undefined;
  /** Per file name; absent for a replayed finish, which judges from the summary's counts. */
  failedLines?: ReadonlyMap<string, readonly number[]>;
  /** A replayed finish: a file no longer there was moved or deleted by the earlier attempt. */
  replayed?: boolean;
}

/**
 * The feed's `afterRun` for each file of the run, once its summary is stored. An interrupted run
 * leaves its files (some not read to the end), a dry run changes nothing. A failure is logged,
 * never thrown: the run is stored and judged already.
 */
export async function careForFiles(
  input: CaredRun,
  summary: RunSummary,
  state: CareState,
  deps: { location?: Location | undefined; logger: Logger },
): Promise<void> {
  const { location, logger } = deps;
  if (!location || input.dryRun || input.interrupted || state.retryOwed) return;
  const care = afterCareOf(input.feed.source);
  const arrival = arrivalOf(input.feed.source);
  for (const file of input.files) {
    const name = file.reported.path;
    const failed = state.failedLines ? (state.failedLines.get(name)?.length ?? 0) : summary.counts.failed;
    const verdict = verdictOf(summary.stopReason !== undefined, failed);
    try {
      if (state.replayed && !(await location.stat(file.path))) continue;
      const done = await careForFile(location, file.path, care, verdict, markerOf(arrival, file.path));
      if (done) logger.info({ file: name, verdict }, `export file ${done}`);
    } catch (error) {
      logger.error({ err: error, file: name, verdict }, 'could not move or delete the export file');
    }
  }
}
