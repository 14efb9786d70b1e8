import type { CursorPosition } from './database-read.js';
import type { DatabaseLocation, DatabaseSource } from './database-settings.js';

/**
 * The SQL of one read, built only from names the settings schema checked (letters, digits, _, $)
 * and quoted by the dialect; the cursor's values go as parameters, never into the text.
 */
export interface ReadStatement {
  readonly text: string;
  readonly values: readonly string[];
}

type Dialect = DatabaseLocation['type'];

/** `"name"` (PostgreSQL) or `` `name` `` (MySQL): the schema already refused any quote character. */
export function quoteName(dialect: Dialect, name: string): string {
  return dialect === 'postgres' ? `"${name}"` : `\`${name}\``;
}

/** What the read selects from: the table, quoted part by part, or the query as a subquery. */
function relation(dialect: Dialect, source: DatabaseSource): string {
  if (source.table !== undefined) {
    return source.table
      .split('.')
      .map((part) => quoteName(dialect, part))
      .join('.');
  }
  // Line breaks: a query ending in a `--` comment must not comment out the closing parenthesis.
  return `(\n${source.query}\n)`;
}

/** The result's columns without a row: what the cursor's columns are checked against. */
export function probeStatement(dialect: Dialect, source: DatabaseSource): string {
  return `SELECT * FROM ${relation(dialect, source)} AS q LIMIT 0`;
}

/**
 * The read: rows after `after` in (column, tieBreaker) order, keyset-style so each read starts
 * where the last one ended without OFFSET; without a cursor, the whole source in the database's
 * order. A position without the tie-breaker's value (stored before the feed named one) reads from
 * the column's value itself: rows are read again rather than skipped.
 */
export function readStatement(
  dialect: Dialect,
  source: DatabaseSource,
  after: CursorPosition | undefined,
): ReadStatement {
  const from = `SELECT * FROM ${relation(dialect, source)} AS q`;
  const cursor = source.cursor;
  if (cursor === undefined) return { text: from, values: [] };
  const column = `q.${quoteName(dialect, cursor.column)}`;
  const tie = cursor.tieBreaker === undefined ? undefined : `q.${quoteName(dialect, cursor.tieBreaker)}`;
  const order = ` ORDER BY ${tie === undefined ? column : `${column}, ${tie}`}`;
  if (after === undefined) return { text: from + order, values: [] };
  const p = (i: number) => (dialect === 'postgres' ? `$${i}` : '?');
  if (tie === undefined) return { text: `${from} WHERE ${column} > ${p(1)}${order}`, values: [after.column] };
  if (after.tieBreaker === undefined) {
    return { text: `${from} WHERE ${column} >= ${p(1)}${order}`, values: [after.column] };
  }
  return {
    text: `${from} WHERE (${column}, ${tie}) > (${p(1)}, ${p(2)})${order}`,
    values: [after.column, after.tieBreaker],
  };
}
