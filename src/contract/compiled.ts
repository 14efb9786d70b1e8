import * as z from 'zod';

const cache = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with zod's ahead-of-time fast path (`z.compile`), compiled once and cached. A valid
 * value is checked by generated code (about 5x faster for a transaction than the interpreted
 * parse, which allocates per field); an invalid one falls back to the ordinary parse, so the issues
 * are exactly the same. Used where a schema runs per record: mapping, chunk payloads, responses.
 */
export function compiled<T extends z.ZodType>(schema: T): T {
  let fast = cache.get(schema);
  if (!fast) {
    fast = z.compile(schema);
    cache.set(schema, fast);
  }
  return fast as T;
}
