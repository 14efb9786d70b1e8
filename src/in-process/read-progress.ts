import type { FeedOf } from '../config/feed.js';
import type { RecordKind } from '../kinds/registry.js';
import type { RecordStream } from '../sources/open-records.js';
import type { MapOutcome } from '../sources/record.js';
import type { RecordOf } from '../sources/record-of.js';
import type { ProgressListener } from './memory-run.js';

type Open = <K extends RecordKind>(feed: FeedOf<K>, file: string) => RecordStream<RecordOf<K>>;

/**
 * Opens records as `open` does and tells `onProgress` the bytes of the file read with each batch
 * (and the rest at its end: footer and blank lines yield no batch). Once per batch, never per row.
 */
export function withReadProgress(open: Open, onProgress: ProgressListener | undefined): Open {
  if (!onProgress) return open;
  return <K extends RecordKind>(feed: FeedOf<K>, file: string) => {
    const inner = open(feed, file);
    let reported = 0;
    const report = () => {
      const read = inner.bytesRead();
      if (read > reported) onProgress({ records: 0, bytes: read - reported });
      reported = read;
    };
    async function* batches(): AsyncGenerator<readonly MapOutcome<RecordOf<K>>[]> {
      for await (const batch of inner.batches) {
        report();
        yield batch;
      }
      report();
    }
    return { ...inner, batches: batches() };
  };
}
