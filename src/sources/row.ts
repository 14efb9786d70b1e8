import type { Booking, StatementAppearance } from './booking.js';
import type { FieldType } from './field-spec.js';

/** A column reference of a mapping: a header name, or a 1-based position. */
export type ColumnRef = string | number;

/**
 * A column the feed's mapping reads, with the field it fills: what a reader may know of the
 * mapping before any row (a header hint, an empty file's message, a typed cell read for a text
 * field).
 */
export interface MappedColumn {
  readonly ref: ColumnRef;
  readonly field: string;
  readonly type: FieldType;
}

/** `"ID", "Datum", #3`: mapped columns for a message, each once. */
export function namedColumns(columns: readonly MappedColumn[]): string {
  const refs = [...new Set(columns.map((c) => c.ref))];
  return refs.map((ref) => (typeof ref === 'number' ? `#${ref}` : JSON.stringify(ref))).join(', ');
}

/**
 * One data row of an export, wherever it came from (CSV line, JSON Lines object), with its place
 * in the file so every outcome can be traced back to it.
 */
export interface SourceRow {
  readonly file: string;
  /** 1-based line where the row starts (a database row: its ordinal in the read). */
  readonly line: number;
  /**
   * A database row's key, named in outcomes as `table:key` in place of `file:line`: its
   * tie-breaker's value, else its cursor column's; undefined for other sources and for a database
   * source without a cursor.
   */
  readonly key?: string;
  /** The cell for a column, or undefined when the row has no such column. */
  cell(ref: ColumnRef): string | undefined;
  /** The cell at a 0-based position (sources with a header): a mapping resolves it once per file. */
  cellAt?(index: number): string | undefined;
  /** The row as text, for skip patterns and content-derived IDs. */
  text(): string;
  /**
   * Why the format leaves this row out on purpose (a bank's pending entry, which comes back
   * booked): the row becomes an excluded outcome with this reason, counted in the summary and
   * never sent, as if a feed's exclude rule had matched it.
   */
  readonly leftOut?: string;
  /**
   * Bank statement formats: the booking the row is, or is a part of, when the bank gave it a
   * reference, as its record carries it under the format's default mapping. The reader builds it
   * once: the mapper hands it on as it is unless the record's externalId is not `bookingId`.
   */
  readonly booking?: Booking;
  /** With `booking`: the row's externalId under the default mapping (its reference cell). */
  readonly bookingId?: string;
  /** Bank statement formats: the statement appearance the row belongs to (repeats share derived IDs). */
  readonly statement?: StatementAppearance;
}

/** A line that could not become a row at all (unparsable JSON, a broken quote). */
export interface RowProblem {
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

export type SourceItem = { kind: 'row'; row: SourceRow } | { kind: 'problem'; problem: RowProblem };

/** Column layout learnt from a header row. */
export interface Columns {
  readonly names: readonly string[];
  /** Header names that occur more than once: they must be addressed by position. */
  readonly duplicated: ReadonlySet<string>;
  indexOf(ref: ColumnRef): number | undefined;
}

/** A row's cell by a mapping's reference, through the header's columns (rows holding their cells in header order). */
export function cellOf(
  cells: readonly (string | undefined)[],
  columns: Columns,
  ref: ColumnRef,
): string | undefined {
  const i = columns.indexOf(ref);
  return i === undefined ? undefined : cells[i];
}

export function columnsFrom(header: readonly string[]): Columns {
  const index = new Map<string, number>();
  const duplicated = new Set<string>();
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (index.has(name)) duplicated.add(name);
    else index.set(name, i);
  });
  return {
    names: header.map((n) => n.trim()),
    duplicated,
    indexOf: (ref) =>
      typeof ref === 'number' ? (ref >= 1 && ref <= header.length ? ref - 1 : undefined) : index.get(ref),
  };
}
