import type { FeedOf } from '../config/feed.js';
import type { RecordKind } from '../kinds/registry.js';
import type { RecordStream } from '../sources/open-records.js';
import type { MapOutcome } from '../sources/record.js';
import type { RecordOf } from '../sources/record-of.js';
import type { Opener } from '../sync/run/run-port.js';

/**
 * Opens records as usual but ends the file at the first batch after `interrupt`: records not yet
 * handed on are never read (the summary names the line where reading stopped). A file left
 * unfinished has no sha256 of its whole content: its summary entry says so.
 */
export function untilInterrupted(
  interrupt: AbortSignal,
  reading: { lastLine: number; stopped: boolean },
  open: Opener,
): Opener {
  return <K extends RecordKind>(feed: FeedOf<K>, file: string): RecordStream<RecordOf<K>> => {
    const inner = open(feed, file);
    let partial: (hash: string) => void = () => {};
    const cut = new Promise<string>((resolve) => {
      partial = resolve;
    });
    async function* batches(): AsyncGenerator<readonly MapOutcome<RecordOf<K>>[]> {
      for await (const batch of inner.batches) {
        if (interrupt.aborted) {
          reading.stopped = true;
          partial('(not read to the end: interrupted)');
          return;
        }
        for (const outcome of batch) reading.lastLine = Math.max(reading.lastLine, outcome.record.line);
        yield batch;
      }
    }
    // The whole file's hash never comes when reading stops early; it must not reject unheard.
    inner.sha256.catch(() => undefined);
    return { ...inner, batches: batches(), sha256: Promise.race([inner.sha256, cut]) };
  };
}
