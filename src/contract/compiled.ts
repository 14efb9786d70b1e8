import * as z from 'zod';

/** What a caller of `compiled` does with a schema: check a value, as the schema's own safeParse. */
export interface Checker<T extends z.ZodType> {
  safeParse(value: unknown): z.ZodSafeParseResult<z.output<T>>;
}

/**
 * Records a schema checks with its interpreted parse before it is compiled. Compiling a schema
 * costs a few milliseconds (the transaction's ~5 ms, and the first compile in a process warms
 * zod's code generator too: ~40 ms of a 10-row sync's profile, `npm run bench:startup`). The
 * interpreted parse is slow while it is cold: in a fresh process the transaction's first 100
 * records took ~6 ms either way, the first 300 ~9-18 ms interpreted against ~7 ms compiled, so
 * compiling pays from about a hundred records on. A 10-row run never compiles.
 */
export const RECORDS_BEFORE_COMPILE = 100;

/**
 * About how many records a checked value holds: one, plus the length of each array at its top
 * level (a chunk payload's records, a bulk response's items), so a schema checked once per chunk
 * compiles as soon as one checked per record would.
 */
function recordsIn(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.length;
  if (typeof value !== 'object' || value === null) return 1;
  let records = 1;
  for (const field of Object.values(value)) if (Array.isArray(field)) records += field.length;
  return records;
}

const cache = new WeakMap<z.ZodType, Checker<z.ZodType>>();

/**
 * The schema's check, with zod's ahead-of-time fast path (`z.compile`) once it has checked
 * RECORDS_BEFORE_COMPILE records; cached per schema. A valid value is then checked by generated code
 * (about 10x faster for a transaction than the interpreted parse, which allocates per field); an
 * invalid one falls back to the ordinary parse, so results and issues are the same either way.
 * Used where a schema runs per record: mapping, chunk payloads, responses.
 */
export function compiled<T extends z.ZodType>(schema: T): Checker<T> {
  let checker = cache.get(schema);
  if (!checker) {
    checker = compileLater(schema);
    cache.set(schema, checker);
  }
  return checker as Checker<T>;
}

/** The check of `compiled`, its compile step given (a test counts its calls). */
export function compileLater<T extends z.ZodType>(
  schema: T,
  recordsBeforeCompile = RECORDS_BEFORE_COMPILE,
  compile: (schema: T) => T = z.compile,
): Checker<T> {
  let records = 0;
  let fast: T | undefined;
  return {
    safeParse(value) {
      if (fast) return fast.safeParse(value);
      records += recordsIn(value);
      if (records >= recordsBeforeCompile) fast = compile(schema);
      return schema.safeParse(value);
    },
  };
}
