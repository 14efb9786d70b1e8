import * as z from 'zod';
import { envName } from '../locations/location-config.js';

/**
 * Issue 29: the feed keys of a database source, checked at load. Names reach SQL only as checked
 * identifiers, each quoted by the dialect (identifiers.ts); values never reach it as text at all.
 */

/** `source.location` of a database source: the URL (with its password) only ever in `urlEnv`. */
export const DatabaseLocation = z
  .object({
    /** `mysql` reads MySQL and MariaDB alike. */
    type: z.enum(['postgres', 'mysql']),
    /** The variable holding the connection URL, e.g. `postgres://user:pw@host:5432/erp?sslmode=require`. */
    urlEnv: envName,
  })
  .strict();
export type DatabaseLocation = z.output<typeof DatabaseLocation>;

/**
 * Letters (any script), digits, `_` and `$`: nothing that could end a quoted name. 63 characters
 * at most, PostgreSQL's limit (MySQL's is 64).
 */
const IDENTIFIER = /^[\p{L}\p{N}_$]{1,63}$/u;
const identifierRule = 'letters, digits, _ and $ only (at most 63), as the database stores the name';

export const Identifier = z.string().regex(IDENTIFIER, `a column name of ${identifierRule}`);

/** `erp.bank_bookings` or `bank_bookings`: a table, with its schema (MySQL: its database) if given. */
export const TableName = z.string().refine(
  (name) => {
    const parts = name.split('.');
    return parts.length <= 2 && parts.every((part) => IDENTIFIER.test(part));
  },
  {
    message: `a table name, optionally schema-qualified (erp.bank_bookings), each part of ${identifierRule}`,
  },
);

/**
 * A SELECT (or WITH ... SELECT) the reader wraps as `SELECT * FROM (<query>) AS q`, so a trailing
 * `;` would end the statement inside the parentheses: refused rather than cut off silently.
 */
export const QueryText = z
  .string()
  .refine((text) => /^\s*(select|with)\b/i.test(text), {
    message: 'a SELECT statement (SELECT ... or WITH ... SELECT ...)',
  })
  .refine((text) => !text.trimEnd().endsWith(';'), {
    message: 'a SELECT statement without a trailing ";" (it is read as a subquery)',
  });

/** An IANA time zone name the JavaScript runtime knows (`Europe/Berlin`, `UTC`); offsets are refused. */
export const TimeZoneName = z.string().refine(
  (name) => {
    if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || /^[+-]/.test(name)) return false;
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'an IANA time zone name such as Europe/Berlin or UTC' },
);

export const DatabaseCursor = z
  .object({
    /** The column whose value only grows as rows are written or changed (`updated_at`). */
    column: Identifier,
    /** A unique column ordering rows with equal cursor values (`id`): none is skipped or repeated. */
    tieBreaker: Identifier.optional(),
  })
  .strict();
export type DatabaseCursor = z.output<typeof DatabaseCursor>;

/**
 * The `source` keys a database source adds beside `location`: `table` or `query` (one of them),
 * `cursor` for incremental reads, `timeZone` for the session (how timestamps are printed).
 */
export const databaseSourceKeys = {
  table: TableName.optional(),
  query: QueryText.optional(),
  cursor: DatabaseCursor.optional(),
  timeZone: TimeZoneName.default('UTC'),
};

/** `table` XOR `query`, as an issue naming the key (for a schema built on databaseSourceKeys). */
export function checkTableOrQuery(
  source: { table?: string | undefined; query?: string | undefined },
  context: z.RefinementCtx,
): void {
  if ((source.table === undefined) === (source.query === undefined)) {
    context.addIssue({
      code: 'custom',
      path: source.table === undefined ? ['table'] : ['query'],
      message:
        source.table === undefined
          ? 'give table (erp.bank_bookings) or query (SELECT ...): neither is set'
          : 'give table or query, not both',
    });
  }
}

/** A database source's settings, as the reader takes them. */
export const DatabaseSource = z
  .object({ location: DatabaseLocation, ...databaseSourceKeys })
  .strict()
  .superRefine(checkTableOrQuery);
export type DatabaseSource = z.output<typeof DatabaseSource>;

/**
 * How a database source's rows are named (their `file`) and its one "export" in reports: the
 * table as written, or `query` for a query (its text may be long and is in the feed file).
 * Outcomes name a row `label:key`.
 */
export function databaseLabel(source: { readonly table?: string | undefined }): string {
  return source.table ?? 'query';
}
