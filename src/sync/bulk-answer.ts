import type { BulkItemError } from '../contract/index.js';
import type { MappedRecord } from '../sources/record.js';
import type { OutcomeFields } from './build-outcome.js';
import { describeCauses } from './isolate.js';

/**
 * Position in `items` of a bulk answer's entry: its `index` when that item carries the entry's
 * externalId (or the entry names none), else the item with that externalId; undefined if neither.
 */
export function itemAt(
  items: readonly MappedRecord[],
  index: number | undefined,
  externalId: string | null | undefined,
): number | undefined {
  const item = index === undefined ? undefined : items[index];
  if (index !== undefined && item && (externalId == null || item.externalId === externalId)) return index;
  const found = externalId == null ? -1 : items.findIndex((r) => r.externalId === externalId);
  return found >= 0 ? found : undefined;
}

/** A bulk answer's `errors` entry as the rejection of its record. */
export function bulkErrorOutcome(error: BulkItemError): OutcomeFields {
  const detail = error.causes ? describeCauses(error.causes) : '';
  return {
    outcome: 'rejected',
    code: error.error ?? 'INVALID_REQUEST',
    message: [error.message, detail].filter(Boolean).join(': ') || 'refused by the service',
  };
}
