import type { Location } from './location.js';
import type { AfterCare } from './source-keys.js';

/**
 * How a run left a file: `failed` when the run stopped (the file, or the feed, could not be read
 * as configured) or any of its records ended `failed` (not sent, or sent and never confirmed:
 * another run must read it); otherwise `processed`, rejected rows included (their data must
 * change: a corrected export is a new file).
 */
export type FileVerdict = 'processed' | 'failed';

export function verdictOf(stopped: boolean, failedRecords: number): FileVerdict {
  return stopped || failedRecords > 0 ? 'failed' : 'processed';
}

/**
 * Does the feed's `afterRun` to one file, and to its marker file when the feed waits for markers.
 * Called only once the run's outcomes are stored (the caller's duty): a file moved or deleted
 * before then could never be read again for a run that has to be repeated. Returns what was done,
 * for the log, or undefined for `leave`.
 */
export async function careForFile(
  location: Location,
  path: string,
  care: AfterCare,
  verdict: FileVerdict,
  marker?: string,
): Promise<string | undefined> {
  if (care.action === 'leave') return undefined;
  const withMarker = marker !== undefined && (await location.stat(marker)) ? [path, marker] : [path];
  if (care.action === 'delete') {
    for (const p of withMarker) await location.remove(p);
    return 'deleted';
  }
  // As the feed names it: each location puts a relative folder beside the file itself (a second
  // resolution here moved S3 keys into a copy of their own path).
  const folder = verdict === 'failed' ? care.failedFolder : care.processedFolder;
  let moved = path;
  for (const p of withMarker) {
    const to = await location.move(p, folder);
    if (p === path) moved = to;
  }
  return `moved to ${moved}`;
}
