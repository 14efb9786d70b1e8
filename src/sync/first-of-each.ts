import type { MappedRecord } from '../sources/record.js';
import type { ChunkOutcomes } from './chunk-outcomes.js';

/**
 * Keeps the first record of each key and rejects later ones as DUPLICATE_IN_SOURCE, naming the
 * first's line: two records for one target in a chunk would otherwise race (two creates make two
 * invoices or bank accounts; two replacing plan values let the second silently win). Records
 * without a key (undefined) are always kept.
 */
export function firstOfEachKey<R extends MappedRecord>(
  records: readonly R[],
  out: ChunkOutcomes<R>,
  keyOf: (record: R) => string | undefined,
  why: (first: R) => string,
): R[] {
  const firsts = new Map<string, R>();
  const kept: R[] = [];
  for (const record of records) {
    const key = keyOf(record);
    const first = key === undefined ? undefined : firsts.get(key);
    if (first) {
      out.settle(record, { outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE', message: why(first) });
      continue;
    }
    if (key !== undefined) firsts.set(key, record);
    kept.push(record);
  }
  return kept;
}

/** firstOfEachKey by externalId: one record per target (invoices, bank accounts). */
export const firstOfEachExternalId = <R extends MappedRecord>(
  records: readonly R[],
  out: ChunkOutcomes<R>,
): R[] =>
  firstOfEachKey(
    records,
    out,
    (r) => r.externalId,
    (first) =>
      `externalId "${first.externalId}" already appears on line ${first.line} of ${first.file} in this chunk; only that first record is synced: remove or merge the duplicate in the export`,
  );
