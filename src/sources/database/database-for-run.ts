import type { CursorPosition, DatabaseReading } from './database-read.js';
import type { DatabaseSource } from './database-settings.js';
import { openDatabase } from './open-database.js';

/**
 * A database source opened as a run takes it (src/sync/run/database-run.ts OpenedDatabase): named
 * by its table or `query` (the rows' `file`, OpenDatabase.source), not by its URL's label, which
 * the reader's messages carry. URL_MISSING and BAD_URL are thrown here (LocationErrors: the run
 * stops with them); the connection is made by the first read.
 */
export function databaseForRun(
  source: DatabaseSource,
  env: NodeJS.ProcessEnv,
): { label: string; read(after?: CursorPosition): DatabaseReading; close(): Promise<void> } {
  const database = openDatabase(source, env);
  return { label: database.source, read: (after) => database.read(after), close: () => database.close() };
}
