import type { z } from 'zod';
import type { BulkItemError, Cause } from '../../contract/index.js';
import { SandboxFault } from '../fault.js';
import type { AccountRecord } from '../state.js';
import { causesOf } from '../validation.js';

/**
 * Helpers shared by the bank-account, transaction and invoice handlers (the "finance" groups).
 */

/** A problem with one request item that is not a schema violation (a reference that does not resolve). */
export interface ItemProblem {
  status: number;
  code: string;
  message: string;
  causes: Cause[];
}

/**
 * categoryId must name a category of the tenant (404 CATEGORY_NOT_FOUND, like COMPANY_NOT_FOUND
 * for a companyId in a body). null and absent are fine: they mean "uncategorized".
 */
export function categoryProblem(
  account: AccountRecord,
  categoryId: number | null | undefined,
  field = 'categoryId',
): ItemProblem | undefined {
  if (categoryId === null || categoryId === undefined || account.categories.has(categoryId)) return undefined;
  return {
    status: 404,
    code: 'CATEGORY_NOT_FOUND',
    message: `Category ${categoryId} does not exist in account ${account.id}; list /categories for valid ids`,
    causes: [{ field, code: 'not_found', message: `no category ${categoryId} in this account` }],
  };
}

export function faultOf(problem: ItemProblem): SandboxFault {
  return new SandboxFault(problem.status, problem.code, problem.message, problem.causes);
}

/** The raw item's externalId, when it has a string one, for bulk `errors` entries. */
export function rawExternalId(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const value = (item as { externalId?: unknown }).externalId;
  return typeof value === 'string' ? value : undefined;
}

/** A bulk `errors` entry, with the raw item's externalId when it has one. */
export function withExternalId(item: unknown, entry: BulkItemError): BulkItemError {
  const externalId = rawExternalId(item);
  return externalId === undefined ? entry : { index: entry.index, externalId, ...entry };
}

/** Summary line of a bulk answer, e.g. "3 created, 1 failed, 2 skipped". */
export function bulkMessage(parts: Record<string, number>): string {
  return Object.entries(parts)
    .map(([what, n]) => `${n} ${what}`)
    .join(', ');
}

/** Causes of one invalid bulk item: field paths relative to the item, each tagged with the item's index. */
export function itemCauses(error: z.ZodError, index: number): Cause[] {
  return causesOf(error).map((cause) => ({
    ...cause,
    index,
    field: cause.field === '(body)' ? '(item)' : cause.field,
  }));
}

/** One-line message of an invalid bulk item, naming its first problem. */
export function itemMessage(index: number, causes: readonly Cause[]): string {
  const first = causes[0];
  const more = causes.length > 1 ? ` (and ${causes.length - 1} more)` : '';
  return `Item ${index} is invalid: ${first?.field}: ${first?.message}${more}; fix it and resend only this item`;
}

/** Index of the first element whose key is >= value in a list sorted ascending by that key. */
export function lowerBound<T>(sorted: readonly T[], value: number, keyOf: (item: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(sorted[mid] as T) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
