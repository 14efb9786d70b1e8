import type { z } from 'zod';
import type { Cause } from '../contract/index.js';
import { invalidRequest, SandboxFault } from './fault.js';

/** Turns zod issues into `causes` entries: the field path, the item index when inside a list, and a message. */
export function causesOf(error: z.ZodError, listKey?: string): Cause[] {
  return error.issues.map((issue) => {
    const path = [...issue.path];
    const cause: Cause = { message: issue.message, code: issue.code };
    if (listKey !== undefined && path[0] === listKey && typeof path[1] === 'number') {
      cause.index = path[1];
      path.splice(0, 2);
    } else if (listKey === '' && typeof path[0] === 'number') {
      cause.index = path[0];
      path.splice(0, 1);
    }
    const keys =
      'keys' in issue && Array.isArray(issue.keys) ? `${path.length ? '.' : ''}${issue.keys.join(',')}` : '';
    cause.field = `${path.join('.')}${keys}` || '(body)';
    return cause;
  });
}

/**
 * Parses a request part strictly, answering 400 INVALID_REQUEST with causes on failure.
 * `listKey` names the array whose item index should be reported in causes ('' for a bare array body).
 */
export function parseOr400<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
  listKey?: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const causes = causesOf(result.error, listKey);
  const first = causes[0];
  throw invalidRequest(
    `Invalid ${what}: ${first?.field}: ${first?.message}${causes.length > 1 ? ` (and ${causes.length - 1} more)` : ''}`,
    causes,
  );
}

/** Bulk size rule shared by bulk creates and the existence check (assumed code BULK_LIMIT_EXCEEDED). */
export function checkBulkSize(items: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(items))
    throw invalidRequest(`${field} must be an array`, [{ field, message: 'expected an array' }]);
  if (items.length < 1)
    throw invalidRequest(`${field} must contain at least 1 item`, [
      { field, message: 'too small: expected at least 1 item' },
    ]);
  if (items.length > max)
    throw new SandboxFault(
      400,
      'BULK_LIMIT_EXCEEDED',
      `${field} carries ${items.length} items; at most ${max} are allowed per request`,
      [{ field, message: `too big: expected at most ${max} items` }],
    );
  return items;
}
