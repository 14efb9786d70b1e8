import { databaseForRun } from '../sources/database/database-for-run.js';
import type { DatabaseSource } from '../sources/database/database-settings.js';
import { SAMPLE_ROWS } from './sample.js';

/** The first rows of a database source as text cells (NULL as ''), and whether there were more. */
export interface DatabaseSample {
  /** The table, or `query`: how reports name the source. */
  label: string;
  header: readonly string[];
  rows: readonly string[][];
  capped: boolean;
}

/**
 * Reads the first SAMPLE_ROWS rows of a table or query through the reader a run uses (so the
 * cells are exactly what sync maps: `.` decimals, `yyyy-MM-dd` dates), then stops and closes the
 * connection whatever happened: the sample is bounded, never the whole table. A refusal
 * (URL_MISSING, a refused login, no such table) is the reader's LocationError, thrown to the caller.
 */
export async function sampleDatabase(
  source: DatabaseSource,
  env: NodeJS.ProcessEnv,
  max = SAMPLE_ROWS,
): Promise<DatabaseSample> {
  const database = databaseForRun(source, env);
  try {
    const reading = database.read();
    const rows: string[][] = [];
    let header: readonly string[] | undefined;
    let capped = false;
    read: for await (const batch of reading.batches) {
      // Known once the first batch was read: the result's columns, in the order of each row's cells.
      header ??= (await reading.columns)?.names ?? [];
      for (const item of batch) {
        if (item.kind !== 'row') continue;
        if (rows.length === max) {
          capped = true;
          break read;
        }
        const { row } = item;
        rows.push((header ?? []).map((_, i) => row.cellAt?.(i) ?? ''));
      }
    }
    header ??= (await reading.columns)?.names ?? [];
    return { label: database.label, header, rows, capped };
  } finally {
    await database.close();
  }
}
