import pg from 'pg';
import Cursor from 'pg-cursor';
import {
  DatabaseError,
  type DatabaseErrorCode,
  failureOf,
  reasonOf,
  socketFailure,
} from './database-errors.js';
import type { DatabaseSession, ReadOptions, RowCells } from './database-session.js';
import type { DatabaseUrl } from './database-url.js';
import type { ReadStatement } from './statement.js';

/**
 * Every value as the server prints it: numeric and int8 keep their digits, dates and timestamps
 * their text (in the session's DateStyle ISO and time zone), json its text, bytea its hex form
 * (`\x...`, bytea_output hex). Only bool is respelled, `t`/`f` as `true`/`false`, which the field
 * conversion reads. Per statement (pg-cursor takes its own), never pg's global parsers.
 */
const BOOL_OID = 16;
const asText = (value: string) => value;
const asBool = (value: string) => (value === 't' ? 'true' : value === 'f' ? 'false' : value);
// pg-types' getTypeParser is typed with overloads per format that one function cannot satisfy;
// the text format is the only one a query without binary mode gets.
const TEXT_TYPES = {
  getTypeParser: (oid: number) => (oid === BOOL_OID ? asBool : asText),
} as unknown as pg.CustomTypesConfig;

/** SQLSTATEs the feed's settings cause (2), the server refuses (3) or a timeout (3). */
const SQLSTATE: Record<string, DatabaseErrorCode> = {
  '28P01': 'AUTH_FAILED',
  '28000': 'AUTH_FAILED',
  '3D000': 'NO_SUCH_DATABASE',
  '3F000': 'NO_SUCH_TABLE',
  '42P01': 'NO_SUCH_TABLE',
  '42703': 'NO_SUCH_COLUMN',
  '42501': 'PERMISSION_DENIED',
  '57014': 'TIMEOUT',
  '57P01': 'CONNECTION_LOST',
  '57P02': 'CONNECTION_LOST',
  '57P03': 'UNREACHABLE',
};

function classify(error: unknown, connected: boolean): DatabaseErrorCode {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') {
    const mapped = SQLSTATE[code];
    if (mapped !== undefined) return mapped;
    if (code.startsWith('08')) return connected ? 'CONNECTION_LOST' : 'UNREACHABLE';
    // Syntax errors and access rule violations: the feed's query is wrong.
    if (code.startsWith('42')) return 'BAD_QUERY';
  }
  const socket = socketFailure(error, connected);
  if (socket !== undefined) return socket;
  const message = reasonOf(error);
  if (/Connection terminated|connection.*(ended|closed)|not queryable/i.test(message)) {
    return connected ? 'CONNECTION_LOST' : 'UNREACHABLE';
  }
  if (/timeout/i.test(message) && !connected) return 'UNREACHABLE';
  return 'FAILED';
}

/** Connects with the URL (sslmode and the rest as pg reads them); refused or unreachable: 3. */
export async function connectPostgres(url: DatabaseUrl, options: ReadOptions): Promise<DatabaseSession> {
  const client = new pg.Client({
    connectionString: url.url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    types: TEXT_TYPES,
  });
  // A connection dying between statements is reported by the next statement; without a listener
  // the client's 'error' event would end the process.
  let lost: unknown;
  client.on('error', (error) => {
    lost ??= error;
  });
  const failure = failureOf(url.label, classify);
  // The connection's own error, when it died, says more than the statement's.
  const fail = (error: unknown, connected: boolean, what: string) => failure(lost ?? error, connected, what);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw fail(error, false, 'connect');
  }
  const run = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw fail(error, true, what);
    }
  };
  let closed = false;
  return {
    begin: (timeZone) =>
      run('start the read-only snapshot', async () => {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        // set_config(..., true) is SET LOCAL with the value as a parameter.
        await client.query(
          `SELECT set_config('DateStyle', 'ISO, YMD', true), set_config('bytea_output', 'hex', true)`,
        );
        // Only a timeout of the read's own: the one the server or the ERP's administrator set for
        // the login (a role's statement_timeout) holds otherwise, never lifted to none.
        if (options.statementTimeoutMs !== undefined)
          await client.query(`SELECT set_config('statement_timeout', $1, true)`, [
            String(options.statementTimeoutMs),
          ]);
        try {
          await client.query(`SELECT set_config('TimeZone', $1, true)`, [timeZone]);
        } catch (error) {
          if ((error as { code?: unknown }).code !== '22023') throw error;
          throw new DatabaseError(
            'TIME_ZONE_UNKNOWN',
            `${url.label}: the server does not know the time zone ${timeZone} (timeZone): ${reasonOf(error)}`,
          );
        }
      }),
    columns: (text) =>
      run('read the columns', async () => {
        const result = await client.query({ text, rowMode: 'array' });
        return result.fields.map((field) => field.name);
      }),
    rows: (statement, batchSize) =>
      fetchRows(client, statement, batchSize, (error) => fail(error, true, 'read')),
    end: () => run('end the snapshot', async () => void (await client.query('ROLLBACK'))),
    close: async () => {
      if (closed) return;
      closed = true;
      await client.end().catch(() => {});
    },
  };
}

/**
 * The rows through a server-side portal, `batchSize` at a time: the next fetch waits for the
 * consumer. A read left early keeps its portal: the reader discards the connection then (closing
 * the portal would wait for the server, which may be gone).
 */
async function* fetchRows(
  client: pg.Client,
  statement: ReadStatement,
  batchSize: number,
  fail: (error: unknown) => Error,
): AsyncGenerator<RowCells[]> {
  const cursor = client.query(
    new Cursor<RowCells>(statement.text, [...statement.values], { rowMode: 'array', types: TEXT_TYPES }),
  );
  for (;;) {
    let rows: RowCells[];
    try {
      rows = await cursor.read(batchSize);
    } catch (error) {
      throw fail(error);
    }
    if (rows.length === 0) return;
    // pg gives NULL as null; a cell the row lacks is undefined, so is NULL.
    yield rows.map((row) => row.map((cell) => (cell === null ? undefined : cell)));
  }
}
