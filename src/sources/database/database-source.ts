import * as z from 'zod';
import type { DatabaseFormat } from '../formats/source-format.js';
import { checkTableOrQuery, DatabaseLocation, databaseSourceKeys } from './database-settings.js';

/**
 * Issue 29, the feed's side: a `source` whose `location` is a database (PostgreSQL, MySQL or
 * MariaDB) names a table or a query instead of a glob and a format. Its keys are the reader's
 * (database-settings.ts); this files them in the registry of source formats.
 */

/** The location types that are databases: a source with one of them is a database source. */
export const DATABASE_TYPES: readonly string[] = DatabaseLocation.shape.type.options;

/**
 * A database source as a feed's `source`: the reader's keys (location, table or query, cursor,
 * timeZone) and `format: database`, which the YAML leaves out (registry.ts adds it for a database
 * location). `decimalSeparator` and `dateFormat` are fixed because the reader writes every decimal
 * and date itself (exact text, ISO dates), and a mapping's constants are written the same way.
 */
export const DatabaseFeedSource = z
  .strictObject({
    format: z.literal('database'),
    location: DatabaseLocation,
    ...databaseSourceKeys,
    decimalSeparator: z.literal('.').default('.'),
    dateFormat: z.literal('yyyy-MM-dd').default('yyyy-MM-dd'),
  })
  .superRefine(checkTableOrQuery);
export type DatabaseFeedSource = z.output<typeof DatabaseFeedSource>;

/** A database source as the registry lists it: rows, not files; no reader of bytes or text. */
export const databaseFormat: DatabaseFormat<typeof DatabaseFeedSource> = {
  schema: DatabaseFeedSource,
  input: 'database',
  position: 'row',
  fixedDates: true,
  docs: 'a database table or query (PostgreSQL, MySQL/MariaDB): a row is a record, read after the stored cursor position',
};
