import type { MappedRecord } from '../../sources/record.js';

/** One record as the service holds it: its id, the key a source record finds it by, its fields. */
export interface HeldRecord {
  id: number;
  /** The service's externalId (or the kind's key, keyOf); null: none, so no source record can name it. */
  key: string | null;
  values: Readonly<Record<string, unknown>>;
}

/**
 * What the service holds of a feed's scope, as a kind reads it (KindDefinition.reconcile): a bank
 * account's transactions, an account's invoices, bank accounts or users.
 */
export interface HeldScope {
  /** The scope in words, for the summary ("bank account acme-main (id 17)"). */
  describe: string;
  /**
   * What a held record's `key` is for a source record, when not its externalId (categories, which
   * the API gives no externalId: the path).
   */
  keyOf?(record: MappedRecord): string;
  /** The fields `keyOf` reads: they name the record, so they are not compared. */
  keyFields?: readonly string[];
  /**
   * A part of the scope a source record belongs to (invoices: SALE or PURCHASE), so `pages` lists
   * only the parts the feed's records name; absent: the scope is one part.
   */
  partOf?(record: MappedRecord): string;
  /** Every held record of the scope (of the parts seen in the source), a page at a time. */
  pages(parts: ReadonlySet<string>): AsyncIterable<readonly HeldRecord[]>;
  /**
   * Kinds the API looks up by externalId: the held records of a batch of source records (at most
   * `size`), by key. Absent: the records are compared against an index of the listing.
   */
  lookup?: { size: number; find(records: readonly MappedRecord[]): Promise<Map<string, HeldRecord>> };
}

/** A feed that cannot be reconciled as it is (exit 2): the message says why and what to do. */
export class ReconcileRefused extends Error {
  override readonly name = 'ReconcileRefused';
}

/** A service object as a held record: keyed by its externalId, its fields as they are. */
export const heldOf = (item: { id: number; externalId?: string | null }): HeldRecord => ({
  id: item.id,
  key: item.externalId ?? null,
  values: item,
});

/** A scope the service answers in one list (an account's bank accounts or users). */
export function listedScope(
  describe: string,
  list: () => Promise<readonly { id: number; externalId?: string | null }[]>,
): HeldScope {
  return {
    describe,
    async *pages() {
      yield (await list()).map(heldOf);
    },
  };
}
