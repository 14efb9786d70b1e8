/**
 * The database benchmark's table (db.bench.ts): `bank_bookings` in a database of its own on each
 * server (test/support/databases.ts: the machine's PostgreSQL and MariaDB, or TEST_POSTGRES_URL and
 * TEST_MYSQL_URL), filled server-side with `rows` deterministic rows, so filling a million rows
 * sends no row over the wire and is not part of what is measured.
 *
 * Row g (1..rows): id g; updated_at 2024-01-01 plus (g div 4) seconds and as many microseconds
 * (every four rows share a value, so the tie-breaker orders them; the microseconds test that the
 * cursor's text is exact); booked_on a day of 2024; amount a signed decimal with cents between
 * -10,000.00 and 10,000.00; currency EUR, every tenth row USD; counterparty one of 997 names; memo
 * an invoice number with an md5 of g (about 50 characters).
 */
import type { TestDatabase } from '../support/databases.js';

export const BENCH_TABLE = 'bank_bookings';

const COLUMNS =
  'id bigint primary key, updated_at timestamp(6), booked_on date, amount numeric(14,2), ' +
  'currency char(3), counterparty text, memo text';

/**
 * An index on the cursor's columns, as a feed with a cursor wants (each read is an ORDER BY on
 * them). Made after the rows are in: faster than keeping it up to date row by row.
 */
const CURSOR_INDEX = `CREATE INDEX bank_bookings_cursor ON ${BENCH_TABLE} (updated_at, id)`;

/** The generator's columns over a series of integers `g` (one expression per dialect). */
const POSTGRES_ROWS = `
  SELECT g,
         timestamp '2024-01-01 00:00:00' + (g / 4) * interval '1 second' + ((g / 4) % 1000000) * interval '1 microsecond',
         date '2024-01-01' + (g % 366)::int,
         ((g * 7919) % 2000001 - 1000000) / 100.0,
         CASE WHEN g % 10 = 0 THEN 'USD' ELSE 'EUR' END,
         'Counterparty ' || (g % 997),
         'Invoice ' || g || ' ' || md5(g::text)
  FROM generate_series(1, $1::bigint) AS g`;

const MYSQL_ROWS = (series: string) => `
  SELECT g,
         TIMESTAMP'2024-01-01 00:00:00' + INTERVAL (g DIV 4) SECOND + INTERVAL ((g DIV 4) MOD 1000000) MICROSECOND,
         DATE'2024-01-01' + INTERVAL (g MOD 366) DAY,
         ((g * 7919) MOD 2000001 - 1000000) / 100,
         IF(g MOD 10 = 0, 'USD', 'EUR'),
         CONCAT('Counterparty ', g MOD 997),
         CONCAT('Invoice ', g, ' ', MD5(g))
  FROM ${series}`;

/** Creates and fills the table; the caller drops the database. */
export async function fillBankBookings(db: TestDatabase, rows: number): Promise<void> {
  if (!Number.isSafeInteger(rows) || rows < 1)
    throw new Error(`rows: expected a positive integer, not ${rows}`);
  await db.exec(`CREATE TABLE ${BENCH_TABLE} (${COLUMNS})`);
  if (db.dialect === 'postgres') {
    await db.exec(`INSERT INTO ${BENCH_TABLE} ${POSTGRES_ROWS}`, [rows]);
    await db.exec(CURSOR_INDEX);
    // Sets the hint bits and the visibility map now, so that the first measured read does not pay
    // for writing them (the rows would be dirtied by whichever process reads first).
    await db.exec(`VACUUM (FREEZE, ANALYZE) ${BENCH_TABLE}`);
    return;
  }
  // MariaDB's Sequence engine: seq_1_to_N is a table of 1..N.
  const sequences = await db.exec('SELECT seq FROM seq_1_to_1').then(
    () => true,
    () => false,
  );
  if (sequences) {
    await db.exec(
      `INSERT INTO ${BENCH_TABLE} ${MYSQL_ROWS(`(SELECT CAST(seq AS SIGNED) AS g FROM seq_1_to_${rows}) AS s`)}`,
    );
  } else {
    // MySQL has no sequence tables: a recursive CTE, allowed by the hint to recurse as deep as
    // the rows (each exec is a connection of its own, so a SET SESSION would not hold). Not run
    // on this machine, which has MariaDB only.
    await db.exec(
      `INSERT /*+ SET_VAR(cte_max_recursion_depth = ${rows + 1}) */ INTO ${BENCH_TABLE} ` +
        `WITH RECURSIVE s (g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${rows}) ${MYSQL_ROWS('s')}`,
    );
  }
  await db.exec(CURSOR_INDEX);
  await db.exec(`ANALYZE TABLE ${BENCH_TABLE}`);
}
