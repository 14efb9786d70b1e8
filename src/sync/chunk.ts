import { LIMITS } from '../contract/index.js';

/** Groups a stream into arrays of at most `size` items (the spec's bulk limit by default). */
export async function* chunksOf<T>(
  items: AsyncIterable<T>,
  size: number = LIMITS.bulkItems.max,
): AsyncGenerator<T[]> {
  if (!Number.isInteger(size) || size < 1 || size > LIMITS.bulkItems.max) {
    throw new RangeError(`chunk size must be between 1 and ${LIMITS.bulkItems.max}, got ${size}`);
  }
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
