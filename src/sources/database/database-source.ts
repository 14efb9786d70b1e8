import { z } from 'zod';
import type { DatabaseFormat } from '../formats/source-format.js';

/**
 * Issue 29, the feed's side: a `source` whose `location` is a database (PostgreSQL, MySQL or
 * MariaDB) names a table or a query instead of a glob and a format. Placeholder of the run side
 * (wip/dbrun): the reading side (src/sources/database/, wip/dbread) owns the connection and the
 * statement built from these keys; the lead keeps one schema of the two at merge.
 */

/** The variable holding the connection URL (with its password): never the URL in the YAML. */
const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name (letters, digits, _)');

/** `location: { type: postgres, urlEnv: ERP_DB_URL }` (or `type: mysql`, MySQL and MariaDB). */
export const DatabaseLocation = z.strictObject({
  type: z.enum(['postgres', 'mysql']),
  urlEnv: envName,
});
export type DatabaseLocation = z.output<typeof DatabaseLocation>;

/** The location types that are databases: a source with one of them is a database source. */
export const DATABASE_TYPES: readonly string[] = DatabaseLocation.shape.type.options;

/** A table name as the statement quotes it: `name` or `schema.name`, never SQL. */
const TableName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/,
    'a table name, or schema.table (letters, digits, _ and $)',
  );
/** A column name as the statement quotes it. */
const ColumnName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_$]*$/, 'a column name (letters, digits, _ and $)');

/**
 * The keys of a database source. `format: database` is what the feed schema files it under (the
 * YAML leaves it out: registry.ts adds it for a database location); `decimalSeparator` and
 * `dateFormat` are fixed because the reader writes every decimal and date itself (exact text, ISO
 * dates), and a mapping's constants are written the same way.
 */
export const DatabaseSource = z
  .strictObject({
    format: z.literal('database'),
    location: DatabaseLocation,
    /** The table (or view) read whole, or from the cursor's position on. */
    table: TableName.optional(),
    /** Instead of `table`: a SELECT whose rows are the export (the cursor's keyset wraps it). */
    query: z.string().trim().min(1).optional(),
    /** Incremental reads: rows after the stored position, in (column, tieBreaker) order. */
    cursor: z.strictObject({ column: ColumnName, tieBreaker: ColumnName.optional() }).optional(),
    /** The zone a timestamp without one is read in (the reading side's rule). */
    timeZone: z.string().min(1).default('UTC'),
    decimalSeparator: z.literal('.').default('.'),
    dateFormat: z.literal('yyyy-MM-dd').default('yyyy-MM-dd'),
  })
  .superRefine((source, ctx) => {
    if ((source.table === undefined) === (source.query === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [source.table === undefined ? 'table' : 'query'],
        message:
          source.table === undefined
            ? 'a database source reads a table or a query: give table (e.g. erp.bank_bookings) or query'
            : 'give either table or query, not both',
      });
  });
export type DatabaseSource = z.output<typeof DatabaseSource>;

/**
 * How reports name the source's one "export" (the rows' `file`): the table, or `query` for a
 * query (its text may be long and is in the feed file). Outcomes name a row `label:key`.
 */
export function databaseLabel(source: Pick<DatabaseSource, 'table'>): string {
  return source.table ?? 'query';
}

/** A database source as the registry lists it: rows, not files; no reader of bytes or text. */
export const databaseFormat: DatabaseFormat<typeof DatabaseSource> = {
  schema: DatabaseSource,
  input: 'database',
  position: 'row',
  fixedDates: true,
  docs: 'a database table or query (PostgreSQL, MySQL/MariaDB): a row is a record, read after the stored cursor position',
};
