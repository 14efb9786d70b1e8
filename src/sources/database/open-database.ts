import { type Columns, columnsFrom, type SourceItem } from '../row.js';
import { DatabaseError } from './database-errors.js';
import type { CursorPosition, DatabaseReading } from './database-read.js';
import { DatabaseRow } from './database-row.js';
import type { DatabaseSession, ReadOptions, RowCells } from './database-session.js';
import { type DatabaseCursor, type DatabaseSource, databaseLabel } from './database-settings.js';
import { type DatabaseUrl, databaseUrl } from './database-url.js';
import { probeStatement, readStatement } from './statement.js';

/** A database source opened for reading: one connection, read once or more, closed by the caller. */
export interface OpenDatabase {
  /** `postgres://host:5432/erp`: how messages name the database (never a user or password). */
  readonly label: string;
  /** How rows are named: the table (`erp.bank_bookings`), or `query`. */
  readonly source: string;
  /**
   * One read in one read-only snapshot: rows after `after` in cursor order (all rows without a
   * cursor or position). Reads of one OpenDatabase follow each other, never overlap.
   */
  read(after?: CursorPosition): DatabaseReading;
  /** Closes the connection, whatever happened (a read left early, a failure); never throws. */
  close(): Promise<void>;
}

const DEFAULT_BATCH = 500;

/**
 * Opens a database source: the URL is taken from the environment now (URL_MISSING, BAD_URL thrown
 * here), the connection made by the first read, so `close()` in a `finally` covers every failure.
 */
export function openDatabase(
  settings: DatabaseSource,
  env: NodeJS.ProcessEnv,
  options: ReadOptions = {},
): OpenDatabase {
  const url = databaseUrl(settings.location, env);
  // The driver is loaded by the first read: a sync or worker that reads no database never loads one.
  const connect = async (at: DatabaseUrl, read: ReadOptions): Promise<DatabaseSession> =>
    settings.location.type === 'postgres'
      ? (await import('./postgres-session.js')).connectPostgres(at, read)
      : (await import('./mysql-session.js')).connectMysql(at, read);
  let session: Promise<DatabaseSession> | undefined;
  const sessions: Sessions = {
    get: () => {
      // A connection that could not be made is not kept: the next read tries again.
      session ??= connect(url, options).catch((error: unknown) => {
        session = undefined;
        throw error;
      });
      return session;
    },
    discard: async (spent) => {
      if (session !== undefined && (await session.catch(() => undefined)) === spent) session = undefined;
      await spent.close();
    },
  };
  const source = databaseLabel(settings);
  return {
    label: url.label,
    source,
    read: (after) =>
      readSource(sessions, settings, source, url.label, after, options.batchSize ?? DEFAULT_BATCH),
    close: async () => {
      if (session === undefined) return;
      const opened = await session.catch(() => undefined);
      await opened?.close();
    },
  };
}

/**
 * The connection the reads share, made by the first: one that failed or was left mid-read is
 * discarded (closed), and the next read connects anew.
 */
interface Sessions {
  get(): Promise<DatabaseSession>;
  discard(spent: DatabaseSession): Promise<void>;
}

/** Where the cursor's cells are in the result, checked before any row is read. */
interface CursorCells {
  readonly column: number;
  readonly tieBreaker?: number;
  /** The settings' names of them, for messages. */
  readonly names: DatabaseCursor;
}

function readSource(
  sessions: Sessions,
  settings: DatabaseSource,
  source: string,
  label: string,
  after: CursorPosition | undefined,
  batchSize: number,
): DatabaseReading {
  const dialect = settings.location.type;
  const prepared = (async () => {
    const db = await sessions.get();
    try {
      await db.begin(settings.timeZone);
      const columns = columnsFrom(await db.columns(probeStatement(dialect, settings)));
      return { db, columns, cursor: cursorCells(settings, columns, source, label) };
    } catch (error) {
      await sessions.discard(db);
      throw error;
    }
  })();
  // The run may only iterate `batches`: the failure is thrown there too, so this copy must not
  // count as an unhandled rejection.
  const columns = prepared.then((p) => p.columns);
  columns.catch(() => {});
  let position: CursorPosition | undefined;
  async function* batches(): AsyncGenerator<SourceItem[]> {
    const { db, columns, cursor } = await prepared;
    let line = 0;
    let ended = false;
    try {
      for await (const rows of db.rows(readStatement(dialect, settings, after), batchSize)) {
        const items: SourceItem[] = [];
        for (const cells of rows) {
          line++;
          const at = cursor === undefined ? undefined : positionOf(cells, cursor, source, label, line);
          items.push({
            kind: 'row',
            row: new DatabaseRow(source, line, keyOf(cells, cursor), cells, columns),
          });
          if (at !== undefined) position = at;
        }
        yield items;
      }
      await db.end();
      ended = true;
    } finally {
      // Failed or left early: the statement may still be running, the connection may be gone.
      if (!ended) await sessions.discard(db);
    }
  }
  return { columns, batches: batches(), position: () => position };
}

/** The cursor's columns in the result, or NO_SUCH_COLUMN naming them and the columns there are. */
function cursorCells(
  settings: DatabaseSource,
  columns: Columns,
  source: string,
  label: string,
): CursorCells | undefined {
  const cursor = settings.cursor;
  if (cursor === undefined) return undefined;
  const find = (name: string, key: string) => {
    const index = columns.indexOf(name);
    if (index === undefined) {
      throw new DatabaseError(
        'NO_SUCH_COLUMN',
        `${label}: ${source}: the column ${name} (${key}) is not in the result; its columns are ${columns.names.join(', ')}`,
      );
    }
    return index;
  };
  const column = find(cursor.column, 'cursor.column');
  return cursor.tieBreaker === undefined
    ? { column, names: cursor }
    : { column, tieBreaker: find(cursor.tieBreaker, 'cursor.tieBreaker'), names: cursor };
}

/** The row's key: its tie-breaker's value, else its cursor column's. */
function keyOf(cells: RowCells, cursor: CursorCells | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  return cells[cursor.tieBreaker ?? cursor.column];
}

/**
 * The row's cursor values. A NULL there has no place in cursor order (PostgreSQL sorts it last,
 * MySQL first, and `>` never matches it): the read stops (exit 2) rather than skip such rows.
 */
function positionOf(
  cells: RowCells,
  cursor: CursorCells,
  source: string,
  label: string,
  line: number,
): CursorPosition {
  const column = cells[cursor.column];
  if (column === undefined) throw nullCursor(label, source, line, cursor.names.column);
  if (cursor.tieBreaker === undefined) return { column };
  const tieBreaker = cells[cursor.tieBreaker];
  if (tieBreaker === undefined) throw nullCursor(label, source, line, cursor.names.tieBreaker ?? '');
  return { column, tieBreaker };
}

function nullCursor(label: string, source: string, line: number, name: string): DatabaseError {
  return new DatabaseError(
    'NULL_CURSOR',
    `${label}: ${source}: row ${line} has NULL in the cursor's column ${name}: a cursor column (and tie-breaker) must never be NULL; choose a NOT NULL column or a query that leaves such rows out`,
  );
}
