import type { Readable } from 'node:stream';
import mysql from 'mysql2';
import type { Connection as PromiseConnection } from 'mysql2/promise';
import { DatabaseError, type DatabaseErrorCode, failureOf, socketFailure } from './database-errors.js';
import type { DatabaseSession, ReadOptions, RowCells } from './database-session.js';
import type { DatabaseUrl } from './database-url.js';

/** mysql2's error codes the feed's settings cause (2), the server refuses (3) or a timeout (3). */
const ER: Record<string, DatabaseErrorCode> = {
  ER_ACCESS_DENIED_ERROR: 'AUTH_FAILED',
  ER_DBACCESS_DENIED_ERROR: 'PERMISSION_DENIED',
  ER_TABLEACCESS_DENIED_ERROR: 'PERMISSION_DENIED',
  ER_COLUMNACCESS_DENIED_ERROR: 'PERMISSION_DENIED',
  ER_BAD_DB_ERROR: 'NO_SUCH_DATABASE',
  ER_NO_SUCH_TABLE: 'NO_SUCH_TABLE',
  ER_BAD_FIELD_ERROR: 'NO_SUCH_COLUMN',
  ER_PARSE_ERROR: 'BAD_QUERY',
  ER_UNKNOWN_TIME_ZONE: 'TIME_ZONE_UNKNOWN',
  ER_QUERY_TIMEOUT: 'TIMEOUT',
  ER_SERVER_SHUTDOWN: 'CONNECTION_LOST',
  ER_CONNECTION_KILLED: 'CONNECTION_LOST',
};

/** By number, for MariaDB's own errors that mysql2 has no name for. */
const ERRNO: Record<number, DatabaseErrorCode> = {
  1969: 'TIMEOUT', // ER_STATEMENT_TIMEOUT (MariaDB's max_statement_time)
  3024: 'TIMEOUT', // ER_QUERY_TIMEOUT (MySQL's max_execution_time)
  1927: 'CONNECTION_LOST', // ER_CONNECTION_KILLED
};

function classify(error: unknown, connected: boolean): DatabaseErrorCode {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  if (typeof code === 'string' && ER[code] !== undefined) return ER[code];
  if (typeof errno === 'number' && ERRNO[errno] !== undefined) return ERRNO[errno];
  const socket = socketFailure(error, connected);
  if (socket !== undefined) return socket;
  if ((error as { fatal?: unknown } | undefined)?.fatal === true)
    return connected ? 'CONNECTION_LOST' : 'UNREACHABLE';
  return 'FAILED';
}

/**
 * A cell as text: mysql2 (with the options below) gives DECIMAL, BIGINT, dates and JSON as the
 * server's text, small integers and floats as numbers (exact: their shortest round-trip text is
 * the server's value), bytes (BLOB, BINARY, BIT) as Buffers, written `\x` and hex as PostgreSQL
 * prints bytea.
 */
function cellText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  return JSON.stringify(value);
}

/**
 * Connects with the URL (mysql2's `uri`: TLS as its `ssl` parameter, a JSON object); refused or
 * unreachable: 3. Never pooled: a stream holds its connection, paused while the consumer is busy.
 */
export async function connectMysql(url: DatabaseUrl, options: ReadOptions): Promise<DatabaseSession> {
  const connection = mysql.createConnection({
    uri: url.url,
    connectTimeout: options.connectTimeoutMs ?? 10_000,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    dateStrings: true,
    jsonStrings: true,
  });
  const db = connection.promise();
  let lost: unknown;
  connection.on('error', (error) => {
    lost ??= error;
  });
  const fail = failureOf(url.label, classify);
  try {
    await db.connect();
  } catch (error) {
    connection.destroy();
    throw fail(error, false, 'connect');
  }
  const run = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    if (lost !== undefined) throw fail(lost, true, what);
    try {
      return await work();
    } catch (error) {
      throw fail(error, true, what);
    }
  };
  // A read the consumer left early leaves its rows coming: only destroying the connection stops it.
  let streaming = false;
  let closed = false;
  return {
    begin: (timeZone) =>
      run('start the read-only snapshot', async () => {
        const [[version]] = await db.query<mysql.RowDataPacket[]>({ sql: 'SELECT VERSION() AS v' });
        const mariadb = String(version?.v).includes('MariaDB');
        await setTimeZone(db, url, timeZone);
        if (options.statementTimeoutMs !== undefined) {
          // MariaDB counts seconds (fractions allowed), MySQL milliseconds (SELECTs only).
          if (mariadb)
            await db.query('SET SESSION max_statement_time = ?', [options.statementTimeoutMs / 1000]);
          else await db.query('SET SESSION max_execution_time = ?', [options.statementTimeoutMs]);
        }
        await db.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        await db.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
      }),
    columns: (text) =>
      run('read the columns', async () => {
        const [, fields] = await db.query({ sql: text, rowsAsArray: true });
        return (fields ?? []).map((field) => field.name);
      }),
    rows: (statement, batchSize) => {
      if (lost !== undefined) throw fail(lost, true, 'read');
      const query = connection.query({
        sql: statement.text,
        values: [...statement.values],
        rowsAsArray: true,
      });
      streaming = true;
      const stream = query.stream({ highWaterMark: batchSize });
      // mysql2 tells a connection lost mid-read to the connection only: the stream would wait for
      // ever. Ending it with the loss makes the read fail as it should.
      const abort = (error: Error) => stream.destroy(error);
      connection.once('error', abort);
      stream.once('close', () => connection.off('error', abort));
      return streamBatches(stream, batchSize, (error) => fail(lost ?? error, true, 'read'));
    },
    end: () =>
      run('end the snapshot', async () => {
        streaming = false;
        await db.query('ROLLBACK');
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      if (streaming || lost !== undefined) {
        connection.destroy();
        return;
      }
      await db.end().catch(() => connection.destroy());
    },
  };
}

/**
 * MariaDB knows zone names only once its time zone tables are loaded (mariadb-tzinfo-to-sql):
 * UTC is sent as the offset +00:00, which needs none; any other name the server does not know is
 * refused (exit 2), saying how to load the tables.
 */
async function setTimeZone(db: PromiseConnection, url: DatabaseUrl, timeZone: string): Promise<void> {
  const utc = ['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Universal', 'Universal', 'Zulu', 'Etc/Zulu'];
  try {
    await db.query('SET time_zone = ?', [utc.includes(timeZone) ? '+00:00' : timeZone]);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ER_UNKNOWN_TIME_ZONE') throw error;
    throw new DatabaseError(
      'TIME_ZONE_UNKNOWN',
      `${url.label}: the server does not know the time zone ${timeZone} (timeZone): its time zone tables are not loaded (mariadb-tzinfo-to-sql /usr/share/zoneinfo | mariadb mysql, or mysql_tzinfo_to_sql on MySQL); without them only UTC can be used`,
      { cause: error },
    );
  }
}

/**
 * The stream's rows in batches of what it has ready (at most `size`): the stream holds at most
 * `size` more (its highWaterMark), and mysql2 pauses the socket while it is full, so the server
 * waits for the consumer rather than the rows piling up in memory.
 */
async function* streamBatches(
  stream: Readable,
  size: number,
  fail: (error: unknown) => Error,
): AsyncGenerator<RowCells[]> {
  let batch: RowCells[] = [];
  try {
    for await (const row of stream) {
      batch.push((row as unknown[]).map(cellText));
      if (batch.length >= size || stream.readableLength === 0) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    throw fail(error);
  }
  if (batch.length > 0) yield batch;
}
