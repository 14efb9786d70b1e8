import { KINDS, type RecordKind } from '../kinds/registry.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import { type Column, refOf } from './columns.js';
import { guess, type Inferred, quoted, sure } from './inferred.js';
import { ID_NAMES, rankOf } from './names.js';

export interface IdentityInference {
  /** Columns unique and non-empty in every sampled row (at least two rows). */
  idColumns: readonly string[];
  /** The externalId's mapping; `null`: none, the derived identity (docs/identity.md) is used. */
  externalId: Inferred<FieldMapping | null>;
  /** The fields the derived identity is built from: the kind's identity fields the mapping fills. */
  derivedFrom: readonly string[];
}

/**
 * ID column candidates, and what the externalId becomes. A sample proves no column unique in the
 * whole export, so a column is at most a guess (its name says ID); with no candidate the derived
 * identity is `sure` to be needed.
 */
export function inferIdentity(
  kind: RecordKind,
  columns: readonly Column[],
  rows: number,
  notIds: ReadonlySet<Column>,
  mapped: readonly string[],
): IdentityInference {
  const derivedFrom = KINDS[kind].identityFields.filter((f) => mapped.includes(f));
  const derived = `the derived identity (docs/identity.md), built from ${derivedFrom.join(', ') || 'the identity fields once mapped'}`;
  const unique =
    rows < 2
      ? []
      : columns.filter(
          (c) =>
            c.name !== '' && !notIds.has(c) && c.values.length === rows && new Set(c.values).size === rows,
        );
  const idColumns = unique.map((c) => c.name);
  const named = unique
    .map((column) => ({ column, rank: rankOf(column.name, ID_NAMES) }))
    .filter((c): c is { column: Column; rank: number } => c.rank !== undefined)
    .sort((a, b) => a.rank - b.rank);
  const best = named[0];
  if (best)
    return {
      idColumns,
      derivedFrom,
      externalId: guess<FieldMapping | null>(
        refOf(best.column, columns),
        `column ${quoted(best.column.name)}: named like an ID and unique in all ${rows} sampled rows (the sample cannot prove it unique in every export)`,
        [...named.map((n) => refOf(n.column, columns)), null],
      ),
    };
  if (unique.length > 0)
    return {
      idColumns,
      derivedFrom,
      externalId: guess<FieldMapping | null>(
        null,
        `${derived}; ${unique.map((c) => quoted(c.name)).join(', ')} ${unique.length === 1 ? 'is' : 'are'} unique in the sample but not named like an ID`,
        [null, ...unique.map((c) => refOf(c, columns))],
      ),
    };
  return {
    idColumns,
    derivedFrom,
    externalId:
      rows < 2
        ? guess<FieldMapping | null>(null, `${derived}: too few rows in the sample to find an ID column`)
        : sure<FieldMapping | null>(null, `${derived}: no column is unique and filled in every sampled row`),
  };
}
