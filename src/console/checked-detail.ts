import type { ZodSafeParseResult } from 'zod';
import type { Detail } from './console-source.js';
import { firstIssue } from './summary-schemas.js';

/**
 * A stored summary (a summary.json, the fleet's Redis) checked with `schema` at the edge: the
 * summary a page shows, or damaged with `notOne` and the first problem (never the value), so a
 * summary another version or a hand wrote is listed, never a crash.
 */
export function checkedDetail<S>(
  schema: { safeParse(value: unknown): ZodSafeParseResult<S> },
  value: unknown,
  id: string,
  notOne: string,
): Detail<S> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { summary: parsed.data }
    : { damaged: { id, problem: `${notOne}: ${firstIssue(parsed.error)}` } };
}
