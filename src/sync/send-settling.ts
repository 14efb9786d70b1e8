import type { MappedRecord } from '../sources/record.js';
import type { ChunkOutcomes } from './chunk-outcomes.js';
import { type IsolationProgress, isolationProgress, sendIsolating } from './isolate.js';

/**
 * sendIsolating for a chunk's records, with its rejections settled at once. A failure is returned,
 * not thrown, next to `progress` (what was answered, which batch failed, what was never sent), so
 * the caller settles every answered record before it decides what the failure means.
 */
export async function sendSettling<R extends MappedRecord, A>(
  records: R[],
  send: (batch: R[]) => Promise<A>,
  out: ChunkOutcomes<R>,
): Promise<{ progress: IsolationProgress<R, A>; failure: unknown }> {
  const progress = isolationProgress<R, A>();
  let failure: unknown;
  try {
    await sendIsolating(records, send, progress);
  } catch (error) {
    failure = error;
  }
  for (const { item, code, message } of progress.rejected)
    out.settle(item, { outcome: 'rejected', code, message });
  return { progress, failure };
}
