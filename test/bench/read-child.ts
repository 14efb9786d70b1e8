/**
 * The read path of the reader benchmark (readers.bench.ts): `openRecords` over a feed's export,
 * what a sync does before the network — the encoding checked, the file decoded and read by the
 * feed's format, every row mapped to a record — with every outcome consumed and nothing else done.
 *
 *   node --import tsx test/bench/read-child.ts <feed.yaml>
 *
 * Prints one JSON line: outcomes (records) by kind, CPU (µs, user + system) and wall time from
 * opening the file to the last outcome (module loading left out, as in the baselines), and the
 * process's peak RSS (kB).
 */
import { loadFeedFile } from '../../src/config/load-feed.js';
import { expandGlob } from '../../src/sources/glob.js';
import { openRecords } from '../../src/sources/open-records.js';

const feedFile = process.argv[2];
if (!feedFile) throw new Error('usage: read-child.ts <feed.yaml>');
const { feed, sourceGlob } = await loadFeedFile(feedFile);
const [file] = await expandGlob(sourceGlob);
if (!file) throw new Error(`no export matches ${sourceGlob}`);

const cpuBefore = process.cpuUsage();
const started = performance.now();
const outcomes: Record<string, number> = {};
let records = 0;
for await (const batch of openRecords(feed, file).batches) {
  records += batch.length;
  for (const outcome of batch) outcomes[outcome.kind] = (outcomes[outcome.kind] ?? 0) + 1;
}
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);

process.stdout.write(
  `${JSON.stringify({ records, outcomes, cpuMicros: cpu.user + cpu.system, wallMs, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
