import type { MappedRecord } from '../../sources/record.js';
import type { OutcomeFields } from '../build-outcome.js';
import { type ChunkOutcomes, settleChunk } from '../chunk-outcomes.js';
import { withCreateClaims } from '../create-claims.js';
import { firstOfEachExternalId, firstOfEachKey } from '../first-of-each.js';
import type { RecordOutcome } from '../outcome.js';
import type { ChunkContext } from '../ports.js';
import type { UpsertOptions } from './field-diff.js';

/** What a kind whose records the API finds only by listing them (users, accounts, categories) supplies. */
export interface ListedUpsertSteps<R extends MappedRecord, S, D> {
  /** The claim kind (create-claims.ts) and, for messages, what a record is: "user". */
  kind: string;
  what: string;
  /** Where the listing looks, for messages: "in the account". */
  where: string;
  /** Lists what the service holds, once per chunk. */
  read(): Promise<D>;
  find(listing: D, record: R): S | undefined;
  /** The outcome of a record the service holds (mode insert is handled before). */
  existing(record: R, state: S, listing: D): Promise<OutcomeFields>;
  /** Creates a missing record; `existing` settles it when the create finds it exists after all. */
  create(record: R, listing: D, existing: (state: S) => Promise<OutcomeFields>): Promise<OutcomeFields>;
  id(state: S): number;
  /**
   * What a record is matched by, when not its externalId (a category's path): duplicates in the
   * chunk and create claims go by it, and messages name it.
   */
  keyOf?(record: R): string;
  /** The order the chunk's records are written in (parents before children); default: as read. */
  order?(records: R[]): R[];
}

/**
 * Upserts one chunk one record at a time (the API has no bulk create for the kind), never creating
 * one twice (docs/once-only.md): a second record of an externalId in the chunk is rejected
 * (DUPLICATE_IN_SOURCE), creates are claimed (two runs that both find a record missing would both
 * create it, create-claims.ts), the service's records are listed once; then per record: existing —
 * mode insert skips it, else `existing`; missing — mode update rejects it (NOT_FOUND_FOR_UPDATE),
 * else `create`.
 */
export function syncListedUpsert<R extends MappedRecord, S, D>(
  records: readonly R[],
  options: UpsertOptions,
  ctx: ChunkContext,
  steps: ListedUpsertSteps<R, S, D>,
): Promise<RecordOutcome[]> {
  const keyOf = steps.keyOf ?? ((record: R) => record.externalId);
  const firsts = (out: ChunkOutcomes<R>) =>
    steps.keyOf === undefined
      ? firstOfEachExternalId(records, out)
      : firstOfEachKey(records, out, keyOf, duplicate(keyOf));
  return settleChunk(records, ctx, (out) =>
    withCreateClaims(
      ctx,
      steps.kind,
      firsts(out),
      out,
      async (held) => {
        const listing = await steps.read();
        for (const record of steps.order?.(held) ?? held) {
          const found = steps.find(listing, record);
          const existing = (state: S): Promise<OutcomeFields> =>
            options.mode === 'insert'
              ? Promise.resolve({
                  outcome: 'skipped',
                  serviceId: steps.id(state),
                  message: 'exists; feed mode insert',
                })
              : steps.existing(record, state, listing);
          if (found !== undefined) out.settle(record, await existing(found));
          else if (options.mode === 'update')
            out.settle(record, {
              outcome: 'rejected',
              code: 'NOT_FOUND_FOR_UPDATE',
              message: `no ${steps.what} ${steps.keyOf === undefined ? 'with externalId ' : ''}"${keyOf(record)}" ${steps.where}, and the feed's mode is update (update only); create it elsewhere, or set mode upsert`,
            });
          else out.settle(record, await steps.create(record, listing, existing));
        }
      },
      keyOf,
    ),
  );
}

const duplicate =
  <R extends MappedRecord>(keyOf: (record: R) => string) =>
  (first: R) =>
    `"${keyOf(first)}" already appears on line ${first.line} of ${first.file} in this chunk; only that first record is synced: remove or merge the duplicate in the export`;
