/**
 * The baselines of the database benchmark (db.bench.ts): the driver alone, nothing of erp-bridge,
 * reading the same rows as the reader (db-read-child.ts) in the same order with the same batch
 * size, counting them.
 *
 * - `postgres`: pg + pg-cursor, `read(500)` until empty, in a REPEATABLE READ READ ONLY transaction,
 *   rows as arrays with every value left as the server's text (the reader's choice: parsing
 *   timestamps into Dates would make the driver's side slower than it needs to be).
 * - `mysql`: mysql2 `query(...).stream({highWaterMark: 500})` on a plain (non-pooled) connection
 *   with the reader's type options (src/sources/database/mysql-session.ts): big numbers and
 *   decimals as strings, dates as strings, rows as arrays.
 *
 *   BENCH_DB_URL=postgres://... node --import tsx test/bench/db-driver-child.ts postgres|mysql
 *
 * Prints one JSON line like db-read-child.ts: records (rows counted), CPU (µs) and wall time from
 * connecting to the last row, peak RSS (kB), RSS when the clock started (kB), and the largest old
 * space after a full GC while reading (heap-watch.ts; kB) with the number of full GCs.
 */
import mysql from 'mysql2';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { watchHeap } from './heap-watch.js';

const BATCH = 500;
/** The reader's statement for a cursor `{column: updated_at, tieBreaker: id}` read from the start. */
const SELECT = (quote: string) =>
  `SELECT * FROM ${quote}bank_bookings${quote} AS q ORDER BY q.${quote}updated_at${quote}, q.${quote}id${quote}`;

const dialect = process.argv[2];
const url = process.env.BENCH_DB_URL;
if ((dialect !== 'postgres' && dialect !== 'mysql') || !url)
  throw new Error('usage: BENCH_DB_URL=<url> db-driver-child.ts postgres|mysql');

const asText = (value: string) => value;
const TEXT_TYPES = { getTypeParser: () => asText } as unknown as pg.CustomTypesConfig;

async function countPostgres(connectionString: string): Promise<number> {
  const client = new pg.Client({ connectionString, types: TEXT_TYPES });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const cursor = client.query(new Cursor(SELECT('"'), [], { rowMode: 'array', types: TEXT_TYPES }));
    let rows = 0;
    for (;;) {
      const batch = await cursor.read(BATCH);
      if (batch.length === 0) break;
      rows += batch.length;
    }
    await cursor.close();
    await client.query('ROLLBACK');
    return rows;
  } finally {
    await client.end();
  }
}

async function countMysql(uri: string): Promise<number> {
  const connection = mysql.createConnection({
    uri,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    dateStrings: true,
    jsonStrings: true,
  });
  try {
    const stream = connection.query({ sql: SELECT('`'), rowsAsArray: true }).stream({ highWaterMark: BATCH });
    let rows = 0;
    for await (const _row of stream) rows++;
    return rows;
  } finally {
    await connection.promise().end();
  }
}

// What node, tsx and the modules hold before the first row: the peak beyond it is the reading's.
const rssBeforeKb = process.memoryUsage.rss() / 1024;
const heap = watchHeap();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const records = dialect === 'postgres' ? await countPostgres(url) : await countMysql(url);
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const { oldAfterFullGcKb, fullGcs } = heap.read();

process.stdout.write(
  `${JSON.stringify({ records, cpuMicros: cpu.user + cpu.system, wallMs, maxRssKb: process.resourceUsage().maxRSS, rssBeforeKb, oldAfterFullGcKb, fullGcs })}\n`,
);
