import type { Feed } from '../config/feed.js';
import { LIMITS } from '../contract/index.js';
import type { MappedRecord } from '../sources/record.js';
import type { ChunkSettings } from './strategies/index.js';

/** One chunk of a run, as handed from the import to the chunk sync (in process or through Redis). */
export interface Chunk {
  runId: string;
  feed: string;
  kind: Feed['kind'];
  accountId: number;
  seq: number;
  settings: ChunkSettings;
  records: MappedRecord[];
}

/**
 * Groups items, as they come, into arrays of at most `size` (the spec's bulk limit by default).
 * Synchronous, so a stream of a million records is chunked without a generator step per record.
 */
export class Chunker<T> {
  private batch: T[] = [];

  constructor(private readonly size: number = LIMITS.bulkItems.max) {
    if (!Number.isInteger(size) || size < 1 || size > LIMITS.bulkItems.max) {
      throw new RangeError(`chunk size must be between 1 and ${LIMITS.bulkItems.max}, got ${size}`);
    }
  }

  /** Adds an item; returns the chunk it completes, if it completes one. */
  add(item: T): T[] | undefined {
    this.batch.push(item);
    if (this.batch.length < this.size) return undefined;
    return this.take();
  }

  /** The last chunk: whatever was added since the last full one (undefined when nothing was). */
  rest(): T[] | undefined {
    return this.batch.length > 0 ? this.take() : undefined;
  }

  private take(): T[] {
    const full = this.batch;
    this.batch = [];
    return full;
  }
}
