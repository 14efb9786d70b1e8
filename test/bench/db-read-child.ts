/**
 * Our side of the database benchmark (db.bench.ts): erp-bridge's database reader
 * (src/sources/database/) reading the whole `bank_bookings` table from the start in cursor order
 * (`{column: updated_at, tieBreaker: id}`), in its read-only snapshot, and every row mapped to a
 * transactions record as a sync's run reads its database feed before the network: the feed's
 * source opened as a run opens it (databaseForRun) and read through the run's opener
 * (databaseOpener: the mapper, derived identities, the read's fingerprint).
 *
 *   BENCH_DB_URL=postgres://... node --import tsx test/bench/db-read-child.ts postgres|mysql
 *
 * The database feed is parsed by the project's feed schema (src/config/feed.ts) before the clock
 * starts, as read-child.ts loads its feed file.
 *
 * Prints one JSON line like read-child.ts: records, outcomes by kind, CPU (µs, user + system) and
 * wall time from opening the database to the last record (module loading left out, as in the
 * baseline), the process's peak RSS (kB) and its RSS when the clock started (kB), and the largest
 * old space after a full GC while reading (heap-watch.ts; kB) with the number of full GCs.
 */
import { parseFeed } from '../../src/config/load-feed.js';
import { databaseForRun } from '../../src/sources/database/database-for-run.js';
import { isDatabaseSource } from '../../src/sources/formats/registry.js';
import { databaseOpener } from '../../src/sync/run/database-run.js';
import { BENCH_TABLE } from './db-tables.js';
import { watchHeap } from './heap-watch.js';

const dialect = process.argv[2];
if (dialect !== 'postgres' && dialect !== 'mysql')
  throw new Error('usage: db-read-child.ts postgres|mysql (the URL in BENCH_DB_URL)');

const { feed } = parseFeed(
  `name: bench-db
accountId: 1
kind: transactions
source:
  location: { type: ${dialect}, urlEnv: BENCH_DB_URL }
  table: ${BENCH_TABLE}
  cursor: { column: updated_at, tieBreaker: id }
mapping:
  externalId: id
  bookingDate: booked_on
  amount: amount
  currency: currency
  purpose: memo
  counterpartyName: counterparty
bankAccount:
  externalId: erp-main
  accountName: Main account
  bankName: Bench Bank
  accountCurrency: EUR
  accountType: CHECKING
`,
  'db-read-child.ts (bench feed)',
);
if (!isDatabaseSource(feed.source)) throw new Error('the bench feed is no database feed');
const { source } = feed;

// What node, tsx and the modules hold before the first row: the peak beyond it is the reading's.
const rssBeforeKb = process.memoryUsage.rss() / 1024;
const heap = watchHeap();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const database = databaseForRun(source, process.env);
const outcomes: Record<string, number> = {};
let records = 0;
try {
  const stream = databaseOpener({ database })(feed, database.label);
  for await (const batch of stream.batches) {
    for (const outcome of batch) {
      outcomes[outcome.kind] = (outcomes[outcome.kind] ?? 0) + 1;
      records++;
    }
  }
} finally {
  await database.close();
}
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const { oldAfterFullGcKb, fullGcs } = heap.read();

process.stdout.write(
  `${JSON.stringify({ records, outcomes, cpuMicros: cpu.user + cpu.system, wallMs, maxRssKb: process.resourceUsage().maxRSS, rssBeforeKb, oldAfterFullGcKb, fullGcs })}\n`,
);
