import { LIMITS } from '../contract/index.js';
import type { RecordKind } from '../kinds/registry.js';
import type { RecordOf } from '../sources/record-of.js';
import type { ChunkSettings } from './chunk-settings.js';

/** One chunk of a run of one kind, as handed from the import to the chunk sync (in process or through Redis). */
export interface ChunkOf<K extends RecordKind> {
  runId: string;
  feed: string;
  kind: K;
  accountId: number;
  seq: number;
  settings: ChunkSettings;
  records: RecordOf<K>[];
}

type ChunkByKind = { [K in RecordKind]: ChunkOf<K> };
/** A chunk of any kind: a union per kind, so its records are typed by its `kind`. */
export type Chunk = ChunkByKind[RecordKind];

/**
 * A chunk built for a generic kind K (importFile is generic over the feed's kind), as a member of
 * the union. TypeScript cannot relate ChunkOf<K> to the union for a generic K (it only relates
 * ChunkByKind[K], which it cannot construct: microsoft/TypeScript#30581), so this is the one place
 * that states it; `kind` and `records` are tied by ChunkOf<K>, which the caller's types check.
 */
export function chunkOf<K extends RecordKind>(chunk: ChunkOf<K>): Chunk {
  const member = chunk as ChunkByKind[K];
  return member;
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
