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
 * `init --location postgres --table T`: the first rows of the table (or query) read with the URL
 * of the variable the location names (never printed, never written), inferred as a table export.
 * A table name or query the feed would refuse is refused here (exit 2, naming the flag); the
 * database's refusal (URL_MISSING, a refused login, no such table) is its message and exit code.
 */
export async function inferFromDatabase(
  where: GivenDatabase,
  flags: DatabaseFlags,
): Promise<ExportUse<{ from: string; inference: FeedInference }>> {
  const given = flags.table !== undefined ? { table: flags.table } : { query: flags.query };
  const parsed = DatabaseSource.safeParse({ location: where.database, ...given });
  if (!parsed.success) {
    const issues = describeIssues(parsed.error).map((issue) =>
      issue.replace(/^(table|query)\b/, (key) => `--${key}`),
    );
    return {
      ok: false,
      message: new ConfigError(`--${flags.table !== undefined ? 'table' : 'query'}: not accepted`, issues)
        .message,
      exitCode: EXIT.INVALID_CONFIG,
    };
  }
  try {
    const sample = await sampleDatabase(parsed.data, process.env);
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
        inference: inferDatabase(sample, given, flags.kind ? { kind: flags.kind } : {}),
      },
    };
  } catch (error) {
    if (error instanceof LocationError)
      return { ok: false, message: error.message, exitCode: error.exitCode };
    throw error;
  }
}
