/**
 * Records/s, CPU per record and peak RSS of erp-bridge reading an ERP's database table (issue 29
 * point 5), per database, beside the driver alone reading the same rows.
 *
 * - Input (db-tables.ts): on each server a database of its own (`erp_bridge_bench_<random>`,
 *   dropped at the end, also when the benchmark fails or is interrupted) holding `bank_bookings`
 *   with BENCH_DB_ROWS (default 1,000,000) deterministic rows, filled server-side (not measured).
 *   Servers: the machine's PostgreSQL (127.0.0.1:5432, user postgres) and MariaDB (127.0.0.1:3306,
 *   root), or TEST_POSTGRES_URL and TEST_MYSQL_URL (an administrator's URL without a database), as
 *   the tests connect (test/support/databases.ts).
 * - Reader (db-read-child.ts): `openDatabase` with the cursor `{column: updated_at, tieBreaker: id}`
 *   from the start, every row mapped to a transactions record by the project's mapper.
 * - Baseline (db-driver-child.ts), nothing of erp-bridge: pg + pg-cursor `read(500)` in a
 *   REPEATABLE READ READ ONLY transaction, or mysql2's `.stream()` with the reader's type options,
 *   the same statement and batch size as the reader, counting rows.
 * - Every measurement is a fresh child process; CPU and wall time from connecting to the last
 *   record (module loading left out), peak RSS of the whole process. Each run measures every pair
 *   side by side, the reader first in odd runs and the baseline first in even ones. Medians over
 *   BENCH_RUNS (default 3) runs. Counts are checked (every row a mapped record); times are not.
 *
 *   npm run bench:db
 *   BENCH_DB_ROWS=200000 npm run bench:db
 *   BENCH_DBS=postgres npm run bench:db        # only these databases (comma-separated: postgres,mysql)
 */
import { createTestDatabase, databaseMissing, type TestDatabase } from '../support/databases.js';
import { fillBankBookings } from './db-tables.js';
import { fmt, mb, median, spread } from './sandbox-process.js';
import { type ChildFigures, runChild } from './sync-process.js';

const ROWS = Number(process.env.BENCH_DB_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DATABASES = ['postgres', 'mysql'] as const;
type Dialect = (typeof DATABASES)[number];
const chosen = (process.env.BENCH_DBS ?? DATABASES.join(',')).split(',').filter(Boolean);
for (const name of chosen)
  if (!(DATABASES as readonly string[]).includes(name))
    throw new Error(`BENCH_DBS: unknown database "${name}" (expected some of ${DATABASES.join(', ')})`);
const dialects = DATABASES.filter((name) => chosen.includes(name));
if (!Number.isSafeInteger(ROWS) || ROWS < 1) throw new Error(`BENCH_DB_ROWS: expected a positive integer`);

interface Counted extends ChildFigures {
  records: number;
  /** RSS when the clock started (node, tsx, the modules): what the reading adds is beyond it. */
  rssBeforeKb: number;
  /** What the heap retains: the largest old space after a full GC while reading (heap-watch.ts). */
  oldAfterFullGcKb: number;
  fullGcs: number;
  outcomes?: Record<string, number>;
}

interface PairFigures {
  reader: Counted;
  baseline: Counted;
}

/** A child that prints one JSON line of figures; fails unless it counted every row. */
async function measured(what: string, child: string, db: TestDatabase): Promise<Counted> {
  const env = { ...process.env, BENCH_DB_URL: db.url };
  const { stdout } = await runChild(what, ['--import', 'tsx', `test/bench/${child}`, db.dialect], env);
  const printed = JSON.parse(stdout) as Counted;
  if (printed.records !== ROWS) throw new Error(`${what} counted ${printed.records} rows, expected ${ROWS}`);
  if (printed.outcomes !== undefined && printed.outcomes.mapped !== ROWS)
    throw new Error(`${what}: not every row was mapped: ${JSON.stringify(printed.outcomes)}`);
  return printed;
}

const perSecond = (f: Counted) => f.records / (f.wallMs / 1000);
const perRecord = (f: Counted) => f.cpuMicros / f.records;
const BASELINE: Record<Dialect, string> = {
  postgres: 'pg + pg-cursor alone',
  mysql: 'mysql2 stream alone',
};

for (const dialect of dialects) {
  const missing = await databaseMissing(dialect);
  if (missing) throw new Error(`bench:db: ${missing} (or leave it out with BENCH_DBS)`);
}

const made: TestDatabase[] = [];
let dropped: Promise<void> | undefined;
/** Drops every database made so far, once; says which are left when a drop fails. */
const dropAll = () => {
  dropped ??= Promise.allSettled(made.map((db) => db.drop())).then((outcomes) => {
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected')
        process.stderr.write(`could not drop ${made[i]?.name}: ${String(outcome.reason)}\n`);
    });
  });
  return dropped;
};
// Interrupted (Ctrl-C, kill, the terminal closed): the databases are dropped before the process ends. The signal often comes
// twice (to the process group, and relayed by tsx's wrapper): a second one must not end the
// process mid-drop, so the handler stays until the end.
const interrupted = (signal: NodeJS.Signals) => {
  if (dropped === undefined) process.stderr.write(`${signal}: dropping the benchmark's databases\n`);
  void dropAll().finally(() => process.exit(130));
};
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
for (const signal of SIGNALS) process.on(signal, interrupted);

const results = new Map<Dialect, PairFigures[]>();
try {
  const dbs = new Map<Dialect, TestDatabase>();
  for (const dialect of dialects) {
    const filled = performance.now();
    const db = await createTestDatabase(dialect, 'erp_bridge_bench');
    made.push(db);
    await fillBankBookings(db, ROWS);
    dbs.set(dialect, db);
    process.stderr.write(
      `${dialect}: ${db.name} filled with ${ROWS} rows in ${fmt((performance.now() - filled) / 1000, 1)} s\n`,
    );
  }
  for (let run = 1; run <= RUNS; run++) {
    for (const [dialect, db] of dbs) {
      const reader = () => measured(`reader ${dialect}`, 'db-read-child.ts', db);
      const baseline = () => measured(`${BASELINE[dialect]}`, 'db-driver-child.ts', db);
      // Alternate which goes first, so neither always meets the warmer server cache or cooler CPU.
      const first = run % 2 === 1 ? await reader() : await baseline();
      const second = run % 2 === 1 ? await baseline() : await reader();
      const [readFigures, baseFigures] = run % 2 === 1 ? [first, second] : [second, first];
      results.set(dialect, [...(results.get(dialect) ?? []), { reader: readFigures, baseline: baseFigures }]);
      process.stderr.write(
        `run ${run} ${dialect}: reader ${fmt(perSecond(readFigures), 0)} records/s ` +
          `${fmt(perRecord(readFigures))} µs/record ${fmt(mb(readFigures.maxRssKb), 0)} MB; ` +
          `${BASELINE[dialect]} ${fmt(perSecond(baseFigures), 0)} rows/s ${fmt(perRecord(baseFigures))} µs/row ` +
          `${fmt(mb(baseFigures.maxRssKb), 0)} MB\n`,
      );
    }
  }
  console.log(
    `database benchmark: ${ROWS} rows of bank_bookings, ${RUNS} runs (medians, then each run), node ${process.version}`,
  );
  for (const [dialect, runs] of results) {
    const each = (pick: (r: PairFigures) => number) => runs.map(pick);
    const rss = (pick: (r: PairFigures) => Counted) =>
      `peak RSS ${spread(
        each((r) => mb(pick(r).maxRssKb)),
        0,
      )} MB, of which ${fmt(median(each((r) => mb(pick(r).rssBeforeKb))), 0)} MB before reading; ` +
      (Math.max(...each((r) => pick(r).fullGcs)) === 0
        ? 'no full GC while reading'
        : `old space after full GCs at most ${fmt(Math.max(...each((r) => mb(pick(r).oldAfterFullGcKb))), 1)} MB ` +
          `(full GCs while reading ${each((r) => pick(r).fullGcs).join(', ')})`);
    console.log(
      `${dialect.padEnd(8)} reader    ${spread(
        each((r) => perSecond(r.reader)),
        0,
      )} records/s; ` + `${spread(each((r) => perRecord(r.reader)))} µs CPU/record; ${rss((r) => r.reader)}`,
    );
    console.log(
      `         baseline  ${spread(
        each((r) => perSecond(r.baseline)),
        0,
      )} rows/s; ` +
        `${spread(each((r) => perRecord(r.baseline)))} µs CPU/row; ${rss((r) => r.baseline)}  (${BASELINE[dialect]})`,
    );
    console.log(
      `         ratio     CPU x${spread(each((r) => r.reader.cpuMicros / r.baseline.cpuMicros))} the baseline's; ` +
        `wall x${spread(each((r) => r.reader.wallMs / r.baseline.wallMs))}`,
    );
  }
} finally {
  await dropAll();
  for (const signal of SIGNALS) process.off(signal, interrupted);
}
