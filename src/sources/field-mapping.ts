import * as z from 'zod';

/**
 * How one service field is filled from a row. A leaf of the configuration: the feed schema and the
 * source formats (whose default mappings are written in it) both import it.
 */

export const columnRef = z.union([z.string().min(1), z.int().positive()], {
  message: 'expected a column name, or a 1-based column position for duplicated names',
});

/** Translates source values (after trimming) to service values, e.g. {"bezahlt": "PAID"}. */
const valueMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/**
 * How one service field is filled. A bare string names a column; objects give the other forms:
 * a column by name or position (with an optional value map and default for empty cells), a
 * constant, several columns joined, debit/credit columns, or an amount with a sign column.
 */
export const FieldMapping = z.union(
  [
    z.string().min(1),
    z.strictObject({
      column: columnRef,
      map: valueMap.optional(),
      default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    }),
    z.strictObject({ const: z.union([z.string(), z.number(), z.boolean(), z.null()]) }),
    z.strictObject({ columns: z.array(columnRef).min(1), separator: z.string().default(' ') }),
    z.strictObject({ debit: columnRef, credit: columnRef }),
    z.strictObject({
      column: columnRef,
      sign: z.strictObject({
        column: columnRef,
        negative: z.array(z.string()).min(1).default(['S', 'D', '-']),
        positive: z.array(z.string()).min(1).default(['H', 'C', '+']),
      }),
    }),
  ],
  {
    message:
      'expected a column name, or one of {column[, map, default]}, {const}, {columns[, separator]}, {debit, credit}, {column, sign}',
  },
);
export type FieldMapping = z.output<typeof FieldMapping>;

/** A feed's mapping: service field → how it is filled. */
export type FieldMappings = Record<string, FieldMapping>;

/**
 * A feed's mapping over a format's default mapping: a field the feed maps replaces the default's
 * (`{const: null}` leaves it empty: the mapper sends no value for it); the others keep theirs.
 */
export function overDefaults(defaults: Readonly<FieldMappings>, mapping: FieldMappings = {}): FieldMappings {
  return { ...defaults, ...mapping };
}
