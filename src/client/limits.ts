import { LIMITS, type OperationName } from '../contract/index.js';
import { ApiError, CLIENT_ERROR_CODES, target } from './errors.js';

/**
 * Limits of the spec enforced before a request leaves the process. Bodies are not zod-validated
 * here (the sync engine validates each record and reports it against its source line); only the
 * sizes that would make the whole request fail are checked, because a 400 for a 1001-item bulk
 * would cost a round trip and tell us nothing about individual records.
 */

/** Where each list-carrying operation keeps its list. */
const BULK_LISTS: Partial<Record<OperationName, (body: unknown) => unknown>> = {
  createTransactionsBulk: (body) => field(body, 'transactions'),
  createInvoicesBulk: (body) => field(body, 'invoices'),
  createPlansBulk: (body) => body,
  checkTransactionsExist: (body) => field(body, 'externalIds'),
};

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function refused(operation: string, accountId: number | undefined, code: string, what: string): ApiError {
  return new ApiError({
    kind: 'refused',
    code,
    operation,
    accountId,
    message: `${target(operation, accountId)}: not sent, ${what}`,
  });
}

/** Throws a 'refused' ApiError when the request would break a count or length limit. */
export function checkRequestLimits(
  operation: OperationName,
  accountId: number | undefined,
  body: unknown,
  query: unknown,
): void {
  const list = BULK_LISTS[operation]?.(body);
  if (Array.isArray(list)) {
    const { min, max } = LIMITS.bulkItems;
    if (list.length < min) {
      throw refused(
        operation,
        accountId,
        CLIENT_ERROR_CODES.EMPTY_BULK,
        'it carries no items; skip the request',
      );
    }
    if (list.length > max) {
      throw refused(
        operation,
        accountId,
        CLIENT_ERROR_CODES.BULK_LIMIT_EXCEEDED,
        `it carries ${list.length} items, more than the ${max} one request may carry; split it into requests of at most ${max}`,
      );
    }
    if (operation === 'checkTransactionsExist') checkExternalIds(operation, accountId, list);
  }
  if (operation === 'listInvoices') {
    const ids = field(query, 'externalId');
    if (ids === undefined) return;
    const values = Array.isArray(ids) ? ids : [ids];
    const { maxValues } = LIMITS.externalIdFilter;
    if (values.length > maxValues) {
      throw refused(
        operation,
        accountId,
        CLIENT_ERROR_CODES.TOO_MANY_EXTERNAL_IDS,
        `it filters on ${values.length} external IDs, more than ${maxValues}; use lookupInvoicesByExternalIds, which splits them`,
      );
    }
    checkExternalIds(operation, accountId, values);
  }
}

/** Every external ID must be a non-empty string of at most 255 characters. */
export function checkExternalIds(
  operation: string,
  accountId: number | undefined,
  ids: readonly unknown[],
): asserts ids is readonly string[] {
  const max = LIMITS.externalIdFilter.maxLength;
  ids.forEach((id, index) => {
    if (typeof id !== 'string' || id.length === 0 || id.length > max) {
      const what =
        typeof id !== 'string' || id.length === 0
          ? 'is empty or not a string'
          : `has ${id.length} characters, more than ${max}`;
      throw refused(
        operation,
        accountId,
        CLIENT_ERROR_CODES.INVALID_EXTERNAL_ID,
        `external ID #${index} ${what}; reject that record before syncing`,
      );
    }
  });
}

/**
 * Splits external IDs for the invoice lookup into groups of at most 100 (the filter's limit),
 * dropping duplicates; refuses the whole lookup up front when one ID is too long, so no partial
 * lookup is ever mistaken for a complete one.
 */
export function splitExternalIds(
  operation: string,
  accountId: number | undefined,
  ids: readonly string[],
): string[][] {
  checkExternalIds(operation, accountId, ids);
  const unique = [...new Set(ids)];
  const size = LIMITS.externalIdFilter.maxValues;
  const groups: string[][] = [];
  for (let i = 0; i < unique.length; i += size) groups.push(unique.slice(i, i + size));
  return groups;
}
