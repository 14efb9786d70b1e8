/**
 * Our side of the database benchmark (db.bench.ts): erp-bridge's database reader
 * (src/sources/database/) reading the whole `bank_bookings` table from the start in cursor order
 * (`{column: updated_at, tieBreaker: id}`), in its read-only snapshot, and every row mapped to a
 * transactions record by the project's mapper, as a sync maps a file's rows before the network.
 *
 *   BENCH_DB_URL=postgres://... node --import tsx test/bench/db-read-child.ts postgres|mysql
 *
 * The feed is parsed by the project's feed schema (src/config/feed.ts) before the clock starts, as
 * read-child.ts loads its feed file. Its source is a CSV source standing in for the cell formats
 * only (decimal point, ISO dates: what a database's text gives); the run side, which gives a feed
 * a database source, is not on this branch. Nothing of the CSV source is read.
 *
 * Prints one JSON line like read-child.ts: records, outcomes by kind, CPU (µs, user + system) and
 * wall time from opening the database to the last record (module loading left out, as in the
 * baseline), the process's peak RSS (kB) and its RSS when the clock started (kB), and the largest
 * old space after a full GC while reading (heap-watch.ts; kB) with the number of full GCs.
 */
import { parseFeed } from '../../src/config/load-feed.js';
import { DatabaseSource } from '../../src/sources/database/database-settings.js';
import { openDatabase } from '../../src/sources/database/open-database.js';
import { compileMapper } from '../../src/sources/mapper.js';
import { BENCH_TABLE } from './db-tables.js';
import { watchHeap } from './heap-watch.js';

const dialect = process.argv[2];
if (dialect !== 'postgres' && dialect !== 'mysql')
  throw new Error('usage: db-read-child.ts postgres|mysql (the URL in BENCH_DB_URL)');

const settings = DatabaseSource.parse({
  location: { type: dialect, urlEnv: 'BENCH_DB_URL' },
  table: BENCH_TABLE,
  cursor: { column: 'updated_at', tieBreaker: 'id' },
});
const { feed } = parseFeed(
  `name: bench-db
accountId: 1
kind: transactions
source: { path: unread.csv, format: csv, decimalSeparator: ".", dateFormat: yyyy-MM-dd }
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

// What node, tsx and the modules hold before the first row: the peak beyond it is the reading's.
const rssBeforeKb = process.memoryUsage.rss() / 1024;
const heap = watchHeap();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const db = openDatabase(settings, process.env);
const outcomes: Record<string, number> = {};
let records = 0;
try {
  const reading = db.read();
  // The mapper is compiled once the result's columns are known, as openRecords compiles it.
  const mapper = compileMapper(feed, await reading.columns);
  for await (const batch of reading.batches) {
    for (const item of batch) {
      if (item.kind !== 'row') throw new Error(`unexpected ${item.kind} from the database reader`);
      const outcome = mapper(item.row);
      outcomes[outcome.kind] = (outcomes[outcome.kind] ?? 0) + 1;
      records++;
    }
  }
} finally {
  await db.close();
}
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const { oldAfterFullGcKb, fullGcs } = heap.read();

process.stdout.write(
  `${JSON.stringify({ records, outcomes, cpuMicros: cpu.user + cpu.system, wallMs, maxRssKb: process.resourceUsage().maxRSS, rssBeforeKb, oldAfterFullGcKb, fullGcs })}\n`,
);
