import { ConfigError, describeIssues } from '../../config/errors.js';
import { sampleDatabase } from '../../init/database-sample.js';
import type { FeedInference } from '../../init/feed-shape.js';
import { inferDatabase } from '../../init/infer-database.js';
import type { GivenDatabase } from '../../init/location-flag.js';
import type { RecordKind } from '../../kinds/registry.js';
import { DatabaseSource } from '../../sources/database/database-settings.js';
import { LocationError } from '../../sources/locations/location-error.js';
import { EXIT } from '../exit-codes.js';
import type { ExportUse } from './init-export.js';

/** The table or query `init` reads on a database location: exactly one of them. */
export interface DatabaseFlags {
  table?: string;
  query?: string;
  kind?: RecordKind;
}

/**
 * The source `--location` and `--table` (or `--query`) give, checked as the feed's keys are (a
 * table name or query the feed would refuse is refused here, exit 2, naming the flag).
 */
export function databaseSourceOf(
  where: GivenDatabase,
  flags: DatabaseFlags,
): { ok: true; source: DatabaseSource } | { ok: false; message: string } {
  const given = flags.table !== undefined ? { table: flags.table } : { query: flags.query };
  const parsed = DatabaseSource.safeParse({ location: where.database, ...given });
  if (parsed.success) return { ok: true, source: parsed.data };
  const issues = describeIssues(parsed.error).map((issue) =>
    issue.replace(/^(table|query)\b/, (key) => `--${key}`),
  );
  const flag = flags.table !== undefined ? 'table' : 'query';
  return { ok: false, message: new ConfigError(`--${flag}: not accepted`, issues).message };
}

/**
 * `init --location postgres --table T`: the first rows of the table (or query) read with the URL
 * of the variable the location names (never printed, never written), inferred as a table export.
 * The database's refusal (URL_MISSING, a refused login, no such table) is its message and exit code.
 */
export async function inferFromDatabase(
  source: DatabaseSource,
  kind: RecordKind | undefined,
): Promise<ExportUse<{ from: string; inference: FeedInference }>> {
  const given = source.table !== undefined ? { table: source.table } : { query: source.query };
  try {
    const sample = await sampleDatabase(source, process.env);
    if (sample.header.length === 0)
      return {
        ok: false,
        message: `${sample.label}: the database returned no columns`,
        exitCode: EXIT.INVALID_CONFIG,
      };
    return {
      ok: true,
      value: {
        from: sample.label,
        inference: inferDatabase(sample, given, kind ? { kind } : {}),
      },
    };
  } catch (error) {
    if (error instanceof LocationError)
      return { ok: false, message: error.message, exitCode: error.exitCode };
    throw error;
  }
}
