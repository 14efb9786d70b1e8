import { createHash } from 'node:crypto';
import type { Feed } from '../../config/feed.js';
import type { CursorPosition, DatabaseReading } from '../../sources/database/database-read.js';
import type { DatabaseSourceOf } from '../../sources/formats/registry.js';
import { LocationError } from '../../sources/locations/location-error.js';
import { deferred, readingRecords } from '../../sources/open-records.js';
import type { SourceItem } from '../../sources/row.js';
import type { CursorRange } from './cursor.js';
import type { Opener } from './run-port.js';

/**
 * Issue 29: a database source as the run uses it, the seam to the reading side
 * (src/sources/database/, its openDatabase): the run lists its one "export" by `label` and reads
 * it once, after the stored cursor position; the reader owns the connection, the snapshot and the
 * statement.
 */
export interface OpenedDatabase {
  /** How reports name the table or query (`erp.bank_bookings`): the rows' `file`. */
  readonly label: string;
  /** The rows after `after` (absent: every row), in cursor order, inside one snapshot. */
  read(after?: CursorPosition): DatabaseReading;
  close(): Promise<void>;
}

/** Opens a feed's database source (the reading side's openDatabase; its errors are LocationErrors). */
export type OpenDatabase = (source: DatabaseSourceOf, env: NodeJS.ProcessEnv) => OpenedDatabase;

/**
 * Opens the feed's database for a run. A database that refuses at once (a URL variable not set, a
 * refused password) is no crash of the command: the run gets a database whose read throws that
 * LocationError, so the run stops as a refused location does (its code and exit code, a summary
 * and report naming it, the other feeds going on) and its position stays. Anything else is thrown.
 */
export function openForRun(
  open: OpenDatabase,
  source: DatabaseSourceOf,
  label: string,
  env: NodeJS.ProcessEnv,
): OpenedDatabase {
  try {
    return open(source, env);
  } catch (error) {
    if (!(error instanceof LocationError)) throw error;
    return refusedDatabase(label, error);
  }
}

function refusedDatabase(label: string, error: LocationError): OpenedDatabase {
  return {
    label,
    read: () => ({
      columns: Promise.resolve(undefined),
      batches: {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
      },
      position: () => undefined,
    }),
    close: async () => {},
  };
}

/** A run's database: what it reads and after which position (none: from the start). */
export interface DatabaseRun {
  database: OpenedDatabase;
  after?: CursorPosition;
}

/**
 * The run's opener of its one database "export": the reading's rows mapped as any export's
 * (readingRecords), its stream telling the range it read (`cursor`) once its batches ended. Each
 * call reads anew (the identity check may read the rows before the import does): the range is
 * the stream's own, so the import's read is the one that advances the cursor.
 */
export function databaseOpener(run: DatabaseRun): Opener {
  return (feed, _path) => {
    const reading = run.database.read(run.after);
    const from = run.after;
    let to: CursorPosition | undefined;
    // A reading stopped part-way (a dropped connection) rejects it: the import's catch hears it.
    const sha256 = deferred<string>();
    async function* rows(): AsyncGenerator<readonly SourceItem[]> {
      try {
        yield* reading.batches;
      } catch (error) {
        sha256.reject(error);
        throw error;
      }
      to = reading.position();
      sha256.resolve(readFingerprint(feed, from, to));
    }
    const stream = readingRecords(feed, run.database.label, { ...reading, batches: rows() }, sha256.promise);
    const range = (): CursorRange => ({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
    return { ...stream, cursor: range };
  };
}

/**
 * A database read's `sha256`, where a file's is its content's: the statement's settings (table or
 * query, cursor, time zone) and the range read (from the position after which it read to the
 * position it ended at). Hashing the rows themselves would cost a pass over every value for a
 * fingerprint nothing compares; this one tells two runs that read the same range of the same
 * statement (a rerun after a failure) from two that did not, and names no value but the cursor's.
 */
export function readFingerprint(
  feed: Pick<Feed, 'source'>,
  from: CursorPosition | undefined,
  to: CursorPosition | undefined,
): string {
  const source = feed.source.format === 'database' ? feed.source : undefined;
  const statement = {
    table: source?.table,
    query: source?.query,
    cursor: source?.cursor,
    timeZone: source?.timeZone,
  };
  return createHash('sha256')
    .update(JSON.stringify({ statement, from: from ?? null, to: to ?? null }))
    .digest('hex');
}
