/**
 * Records/s, CPU per record and peak RSS of each bank-format reader beside the CSV path, on large
 * generated files, each next to the library it is built on working alone on the same file; and a
 * real `erp-bridge sync` of the camt and MT940 files against the sandbox for the peak RSS of the
 * whole sync. Target (issue 13): peak RSS under 300 MB for the 1 GB camt.053 and the large MT940.
 *
 * - Inputs (generated, deterministic): a camt.053 file of BENCH_CAMT_ENTRIES entries (default
 *   1,600,000: about 1 GB), an MT940 file of BENCH_MT940_ENTRIES (default 1,000,000: about 220 MB)
 *   (bank-statements.ts), the sync benchmark's German CSV export of BENCH_CSV_ROWS rows
 *   (default 1,000,000: german-export.ts), a DATEV booking batch of BENCH_DATEV_ROWS bookings
 *   (default 500,000: datev-export.ts) and an xlsx open-items list of BENCH_XLSX_ROWS rows
 *   (default 500,000: xlsx-export.ts).
 * - Reader (read-child.ts): `openRecords` over the file's feed — encoding check, decoding, the
 *   format's reader and the mapping to records, what a sync does before the network — from tsx.
 * - Baselines, nothing of erp-bridge: saxes alone over the camt file counting `Ntry` end tags,
 *   node:readline counting `:61:` lines of the MT940 file (there is no MT940 library: the line
 *   split is the floor), csv-parse alone over the CSV (csv-parse-child.ts); for DATEV, csv-parse
 *   alone from line 2 (the column names; line 1 is the meta header, which the reader checks) with
 *   DATEV's `;` and `"` over Node's streaming windows-1252 decoder — a DATEV file is a CSV to the
 *   library the reader is built on, so what the reader adds (meta header, S/H sign, DDMM date
 *   completion, the CSV reader's own path) is what the ratio shows; for xlsx, yauzl inflating the
 *   sheet's part and saxes counting its `row` end tags (library-child.ts xlsx) — the reader's two
 *   libraries, without the cells, styles and shared strings it resolves.
 * - Every measurement is a fresh child process; CPU and wall time from opening the file to the last
 *   record (module loading left out), peak RSS of the whole process. Each run measures every pair
 *   side by side, the reader first in odd runs and the baseline first in even ones. Medians over
 *   BENCH_RUNS (default 3) runs.
 * - Sync (BENCH_SYNC=0 skips it): the built CLI syncs the camt and MT940 files against the sandbox
 *   in its own process, once per run after the readers; its peak RSS and wall-clock records/s.
 *
 *   npm run bench:readers
 *   BENCH_CAMT_ENTRIES=200000 BENCH_MT940_ENTRIES=200000 BENCH_CSV_ROWS=200000 npm run bench:readers
 *   BENCH_SKIP_BUILD=1 BENCH_SYNC=0 npm run bench:readers   # the read path only, no build
 *   BENCH_SYNC_NODE_ARGS=--max-old-space-size=160 npm run bench:readers   # node flags of the syncs
 *   BENCH_READERS=camt npm run bench:readers   # only these formats (comma-separated: camt,mt940,csv,datev,xlsx)
 *   BENCH_READERS=datev,xlsx BENCH_SYNC=0 npm run bench:readers   # the two newer formats (they have no sync row)
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StatementFile, writeCamtStatements, writeMt940Statements } from './bank-statements.js';
import { DATEV_EXPORT_CSV, writeDatevExport } from './datev-export.js';
import { writeGermanExport } from './german-export.js';
import { median, repoRoot, type SandboxProcess, startSandboxProcess } from './sandbox-process.js';
import { type ChildFigures, measureSync, runChild } from './sync-process.js';
import { writeXlsxExport } from './xlsx-export.js';

const CAMT_ENTRIES = Number(process.env.BENCH_CAMT_ENTRIES ?? 1_600_000);
const MT940_ENTRIES = Number(process.env.BENCH_MT940_ENTRIES ?? 1_000_000);
const CSV_ROWS = Number(process.env.BENCH_CSV_ROWS ?? 1_000_000);
const DATEV_ROWS = Number(process.env.BENCH_DATEV_ROWS ?? 500_000);
const XLSX_ROWS = Number(process.env.BENCH_XLSX_ROWS ?? 500_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SYNC = process.env.BENCH_SYNC !== '0';
const SANDBOX_HEAP_MB = Number(process.env.BENCH_SANDBOX_HEAP_MB ?? 8192);
const syncNodeArgs = (process.env.BENCH_SYNC_NODE_ARGS ?? '').split(' ').filter(Boolean);
const TARGET_RSS_MB = 300;
const FORMATS = ['camt', 'mt940', 'csv', 'datev', 'xlsx'] as const;
const chosen = (process.env.BENCH_READERS ?? FORMATS.join(',')).split(',').filter(Boolean);
for (const name of chosen)
  if (!(FORMATS as readonly string[]).includes(name))
    throw new Error(`BENCH_READERS: unknown format "${name}" (expected some of ${FORMATS.join(', ')})`);
const wanted = (name: (typeof FORMATS)[number]) => chosen.includes(name);
/** Only camt and MT940 have a sync row: without them there is nothing to build or sync. */
const SYNC_WANTED = SYNC && (wanted('camt') || wanted('mt940'));

interface Counted extends ChildFigures {
  records: number;
}

/** One format's reader and its baseline, and what each must count. */
interface Pair {
  name: string;
  /** The generated input, for the printed header. */
  input: string;
  baselineName: string;
  bytes: number;
  reader: () => Promise<Counted>;
  baseline: () => Promise<Counted>;
  /** The statement file and the records a sync creates (pending entries are left out). */
  sync?: { feedFile: string; created: number };
}

interface PairFigures {
  reader: Counted;
  baseline: Counted;
  sync?: ChildFigures;
}

/** A child that prints one JSON line of figures; fails unless it counted `records`. */
async function measured(what: string, args: readonly string[], records: number): Promise<Counted> {
  const { stdout } = await runChild(what, ['--import', 'tsx', ...args]);
  const printed = JSON.parse(stdout) as Counted;
  if (printed.records !== records)
    throw new Error(`${what} counted ${printed.records} records, expected ${records}`);
  return printed;
}

const reader = (feedFile: string, records: number) => () =>
  measured(`read ${feedFile}`, ['test/bench/read-child.ts', feedFile], records);
const library = (mode: 'saxes' | 'lines' | 'xlsx', file: string, records: number) => () =>
  measured(`${mode} ${file}`, ['test/bench/library-child.ts', mode, file], records);

/** Records of a camt file that a sync creates: one in fifty entries is pending, so left out. */
const booked = (statements: StatementFile) => statements.records - Math.floor((statements.entries + 1) / 50);

const mb = (kb: number) => kb / 1024;
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const perSecond = (f: Counted) => f.records / (f.wallMs / 1000);
const perRecord = (f: Counted) => f.cpuMicros / f.records;

const build =
  SYNC_WANTED && !process.env.BENCH_SKIP_BUILD
    ? spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] })
    : undefined;
if (build && build.status !== 0) throw new Error('npm run build failed');

const workDir = await mkdtemp(join(tmpdir(), 'erp-bridge-bench-readers-'));
const dirFor = async (name: string) => {
  const dir = join(workDir, name);
  await mkdir(dir);
  return dir;
};
const results = new Map<string, PairFigures[]>();
let sandbox: SandboxProcess | undefined;
try {
  const generated = performance.now();
  const pairs: Pair[] = [];
  if (wanted('camt')) {
    const camt = await writeCamtStatements(await dirFor('camt'), CAMT_ENTRIES);
    pairs.push({
      name: 'camt',
      input: `camt.053 ${camt.entries} entries (${camt.records} records) ${fmt(camt.bytes / 1e6, 0)} MB`,
      baselineName: 'saxes alone (Ntry end tags)',
      bytes: camt.bytes,
      reader: reader(camt.feedFile, camt.records),
      baseline: library('saxes', camt.file, camt.entries),
      sync: { feedFile: camt.feedFile, created: booked(camt) },
    });
  }
  if (wanted('mt940')) {
    const mt940 = await writeMt940Statements(await dirFor('mt940'), MT940_ENTRIES);
    pairs.push({
      name: 'mt940',
      input: `MT940 ${mt940.entries} entries ${fmt(mt940.bytes / 1e6, 0)} MB`,
      baselineName: 'readline alone (:61: lines)',
      bytes: mt940.bytes,
      reader: reader(mt940.feedFile, mt940.records),
      baseline: library('lines', mt940.file, mt940.entries),
      sync: { feedFile: mt940.feedFile, created: mt940.records },
    });
  }
  if (wanted('csv')) {
    const csv = await writeGermanExport(await dirFor('csv'), CSV_ROWS);
    pairs.push({
      name: 'csv',
      input: `CSV ${csv.rows} rows ${fmt(csv.bytes / 1e6, 0)} MB`,
      baselineName: 'csv-parse alone',
      bytes: csv.bytes,
      reader: reader(csv.feedFile, csv.rows),
      // The header names the columns; the closing balance line is a record to csv-parse.
      baseline: () => measured('csv-parse', ['test/bench/csv-parse-child.ts', csv.csvFile], csv.rows + 1),
    });
  }
  // No sync for these two: their reading is what is new; the kinds benchmark syncs each kind.
  if (wanted('datev')) {
    const datev = await writeDatevExport(await dirFor('datev'), DATEV_ROWS);
    pairs.push({
      name: 'datev',
      input: `DATEV ${datev.rows} bookings ${fmt(datev.bytes / 1e6, 0)} MB`,
      baselineName: 'csv-parse alone (from line 2)',
      bytes: datev.bytes,
      reader: reader(datev.feedFile, datev.rows),
      baseline: () =>
        measured(
          'csv-parse',
          ['test/bench/csv-parse-child.ts', datev.csvFile, JSON.stringify(DATEV_EXPORT_CSV)],
          datev.rows,
        ),
    });
  }
  if (wanted('xlsx')) {
    const xlsx = await writeXlsxExport(await dirFor('xlsx'), XLSX_ROWS);
    pairs.push({
      name: 'xlsx',
      input: `xlsx ${xlsx.rows} rows ${fmt(xlsx.bytes / 1e6, 0)} MB`,
      baselineName: 'yauzl + saxes alone (row end tags)',
      bytes: xlsx.bytes,
      reader: reader(xlsx.feedFile, xlsx.rows),
      // The header row is a <row> too.
      baseline: library('xlsx', xlsx.file, xlsx.rows + 1),
    });
  }
  const inputs = pairs.map((pair) => pair.input).join(', ');
  process.stderr.write(`generated in ${fmt((performance.now() - generated) / 1000, 1)} s: ${inputs}\n`);
  if (SYNC_WANTED) sandbox = await startSandboxProcess([`--max-old-space-size=${SANDBOX_HEAP_MB}`]);
  for (let run = 1; run <= RUNS; run++) {
    for (const pair of pairs) {
      // Alternate which goes first, so neither always meets a warmer page cache or a cooler CPU.
      const first = run % 2 === 1 ? await pair.reader() : await pair.baseline();
      const second = run % 2 === 1 ? await pair.baseline() : await pair.reader();
      const [readFigures, baseFigures] = run % 2 === 1 ? [first, second] : [second, first];
      const syncFigures =
        sandbox && pair.sync
          ? (await measureSync(sandbox, pair.sync.feedFile, pair.sync.created, workDir, syncNodeArgs)).figures
          : undefined;
      const figures: PairFigures = { reader: readFigures, baseline: baseFigures, sync: syncFigures };
      results.set(pair.name, [...(results.get(pair.name) ?? []), figures]);
      process.stderr.write(
        `run ${run} ${pair.name}: reader ${fmt(perSecond(readFigures), 0)} records/s ` +
          `${fmt(perRecord(readFigures))} µs/record ${fmt(mb(readFigures.maxRssKb), 0)} MB; ` +
          `${pair.baselineName} ${fmt(perSecond(baseFigures), 0)} records/s ${fmt(perRecord(baseFigures))} µs/record ` +
          `${fmt(mb(baseFigures.maxRssKb), 0)} MB` +
          (syncFigures
            ? `; sync ${fmt(readFigures.records / (syncFigures.wallMs / 1000), 0)} records/s ${fmt(mb(syncFigures.maxRssKb), 0)} MB`
            : '') +
          '\n',
      );
    }
  }
  console.log(`reader benchmark: ${RUNS} runs (medians), node ${process.version}; ${inputs}`);
  for (const pair of pairs) {
    const runs = results.get(pair.name) ?? [];
    const of = (pick: (r: PairFigures) => number) => median(runs.map(pick));
    const maxRss = Math.max(...runs.map((r) => mb(r.reader.maxRssKb)));
    console.log(
      `${pair.name.padEnd(6)} reader   ${fmt(
        of((r) => perSecond(r.reader)),
        0,
      ).padStart(9)} records/s ` +
        `${fmt(of((r) => perRecord(r.reader))).padStart(6)} µs CPU/record  peak RSS ${fmt(
          of((r) => mb(r.reader.maxRssKb)),
          0,
        )} MB (max ${fmt(maxRss, 0)})` +
        `  CPU x${fmt(of((r) => r.reader.cpuMicros / r.baseline.cpuMicros))} the baseline's, ${fmt(pair.bytes / 1e6 / of((r) => r.reader.wallMs / 1000), 1)} MB/s`,
    );
    console.log(
      `       baseline ${fmt(
        of((r) => perSecond(r.baseline)),
        0,
      ).padStart(9)} records/s ` +
        `${fmt(of((r) => perRecord(r.baseline))).padStart(6)} µs CPU/record  peak RSS ${fmt(
          of((r) => mb(r.baseline.maxRssKb)),
          0,
        )} MB  ${pair.baselineName}`,
    );
    const syncs = runs.flatMap((r) => (r.sync ? [r.sync] : []));
    if (syncs.length > 0) {
      const syncMax = Math.max(...syncs.map((s) => mb(s.maxRssKb)));
      console.log(
        `       sync     ${fmt(median(runs.flatMap((r) => (r.sync ? [r.reader.records / (r.sync.wallMs / 1000)] : []))), 0).padStart(9)} records/s (wall, sandbox on the same machine)  ` +
          `peak RSS ${fmt(median(syncs.map((s) => mb(s.maxRssKb))), 0)} MB (max ${fmt(syncMax, 0)})  ` +
          `target < ${TARGET_RSS_MB} MB: ${syncMax < TARGET_RSS_MB ? 'OK' : 'OVER TARGET'}`,
      );
    }
  }
} finally {
  await sandbox?.stop();
  await rm(workDir, { recursive: true, force: true });
}
