import * as z from 'zod';

/**
 * `integer <int64>`. JSON numbers above 2^53 cannot be represented exactly in JavaScript; rather than
 * accept an ID that JSON.parse has already rounded, we reject anything that is not a safe integer.
 */
export const int64 = z.int({ message: 'expected an integer within the safe int64 range (|n| <= 2^53-1)' });

/** `<date>`: ISO 8601 yyyy-MM-dd, a real calendar date. */
export const isoDate = z.iso.date({ message: 'expected a date as yyyy-MM-dd' });

/** A JSON number within [min, max]; money is never rounded here. */
export function boundedNumber(min: number, max: number) {
  return z.number().check(z.gte(min), z.lte(max)).refine(Number.isFinite, 'expected a finite number');
}

/**
 * An enum in a response: known values are documented by the tuple, but any string is accepted
 * so that a new value added by the service never fails parsing (spec, Versioning 3).
 */
export function openEnum(knownValues: readonly string[]) {
  return z.string().meta({ knownValues: [...knownValues] });
}

/** A query value that may be sent once or repeated (`?externalId=a&externalId=b`). */
export function repeatable<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item));
}

/** Integers in query strings arrive as text on the server side and as numbers on the client side. */
export function queryInt() {
  return z.coerce.number<string | number>().pipe(int64);
}
