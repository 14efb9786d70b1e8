import type { Transaction } from '../../contract/index.js';
import type { ChunkContext } from '../../sync/ports.js';

/*
 * What the service holds of a booking in another shape or split, read for the rare records that
 * must compare with it (docs/identity.md, "One booking, once").
 */

/** Get transaction requests in flight at once for one chunk. */
const GETS_AT_ONCE = 8;

/** The booking date of a transaction as the service gives it, without a time part. */
export const dateOf = (transaction: Transaction): string => transaction.bookingDate.slice(0, 10);

/**
 * The transactions of `ids`: one Get transaction each by the id the existence check gave; those
 * it gave none (the contract allows an answer of bare IDs) are looked for in the bank account's
 * transaction list, page by page until every one is found.
 */
export async function fetchHeld(
  ids: ReadonlySet<string>,
  held: ReadonlyMap<string, number | undefined>,
  bankAccountId: number,
  ctx: ChunkContext,
): Promise<Map<string, Transaction>> {
  const fetched = new Map<string, Transaction>();
  const unnamed = new Set<string>();
  const named: { id: string; transactionId: number }[] = [];
  for (const id of ids) {
    const transactionId = held.get(id);
    if (transactionId === undefined) unnamed.add(id);
    else named.push({ id, transactionId });
  }
  // A few at a time: a file that repeats a whole statement in the other shape asks one per
  // transaction (a thousand for a chunk of 500 two-part batches).
  for (let from = 0; from < named.length; from += GETS_AT_ONCE) {
    const group = named.slice(from, from + GETS_AT_ONCE);
    const got = await Promise.all(
      group.map(({ transactionId }) =>
        ctx.client.getTransaction(ctx.accountId, transactionId, { signal: ctx.signal }),
      ),
    );
    group.forEach(({ id }, i) => {
      fetched.set(id, got[i] as Transaction);
    });
  }
  if (unnamed.size === 0) return fetched;
  for await (const page of ctx.client.transactionPages(ctx.accountId, bankAccountId, {
    signal: ctx.signal,
  })) {
    for (const transaction of page.data) {
      const id = transaction.externalId;
      if (id && unnamed.delete(id)) fetched.set(id, transaction);
    }
    if (unnamed.size === 0) break;
  }
  return fetched;
}
