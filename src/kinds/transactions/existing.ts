import { LIMITS } from '../../contract/index.js';
import { firstPartOf } from '../../sources/booking.js';
import type { MappedRecord } from '../../sources/record.js';
import type { ChunkContext } from '../../sync/ports.js';

/**
 * What one bank account already holds of `records`, by externalId with the service's id: the
 * records' own externalIds and their bookings' other shapes (docs/identity.md, "One booking,
 * once"), asked in existence checks of at most the spec's 1000 IDs each.
 */
export async function existingOf(
  records: readonly MappedRecord[],
  bankAccountId: number,
  ctx: ChunkContext,
): Promise<Map<string, number | undefined>> {
  const ids = new Set<string>();
  for (const record of records) {
    ids.add(record.externalId);
    for (const other of record.booking?.others ?? []) ids.add(other);
    // A later part asks for the first too: held without this part, the booking is there in a
    // split to compare with (other-split.ts). One ID per booking, whatever its number of parts.
    const first = record.booking && firstPartOf(record.booking, record.externalId);
    if (first) ids.add(first);
  }
  return askExistence([...ids], bankAccountId, ctx, new Map());
}

/**
 * Adds to `existing` which of `ids` the bank account holds, with the service's id, asked in
 * existence checks of at most the spec's 1000 IDs each; returns `existing`.
 */
export async function askExistence(
  ids: readonly string[],
  bankAccountId: number,
  ctx: ChunkContext,
  existing: Map<string, number | undefined>,
): Promise<Map<string, number | undefined>> {
  for (let from = 0; from < ids.length; from += LIMITS.bulkItems.max) {
    const found = await ctx.client.checkTransactionsExist(
      ctx.accountId,
      bankAccountId,
      ids.slice(from, from + LIMITS.bulkItems.max),
      { signal: ctx.signal },
    );
    for (const e of found) existing.set(e.externalId, e.transactionId);
  }
  return existing;
}

/**
 * Why a record the account does not hold under its own externalId is not created: its booking is
 * there in another shape (as one entry, or as the parts of its batch). Undefined: it is not.
 */
export function heldInAnotherShape(
  record: MappedRecord,
  existing: ReadonlyMap<string, number | undefined>,
): { serviceId: number | undefined; message: string } | undefined {
  const other = record.booking?.others.find((id) => existing.has(id));
  if (other === undefined || !record.booking) return undefined;
  return {
    serviceId: existing.get(other),
    message: `already in the service as "${other}": the booking with the bank's reference "${record.booking.reference}" in another shape (as one entry, or as the parts of its batch) or under the name an earlier version gave it; not created beside it`,
  };
}
