/**
 * CPU per record and peak RSS of `erp-bridge sync` on a generated 1,000,000-row bank export in
 * German conventions (german-export.ts), against the sandbox with zero latency and no faults, next
 * to csv-parse alone parsing the same file (issue 15). Targets: the sync costs at most 2x the CPU
 * per record of the baseline, and its process peaks under 200 MB RSS.
 *
 * - The sandbox runs in its own process (sandbox-child.ts) with a large heap, as it stores every
 *   transaction; it is reset (and its faults set to none) before each sync, and its CPU is not ours.
 * - Every measurement is a fresh child process, so CPU and peak RSS are per process. Each run
 *   measures the baseline and the sync side by side, in alternating order, on the same file.
 * - Sync: the real CLI from the build (`node dist/src/cli/main.js sync <feed> --log-format json
 *   --no-progress`), no tsx; CPU and peak RSS of the whole process (process.resourceUsage() in an
 *   exit hook). Two ratios: the whole process's CPU over the baseline's, and without the fixed cost
 *   of a run (start-up, module loading, token, target bank account, report files), measured by the
 *   same sync of an export without rows: (CPU of the full sync - CPU of the empty sync) / rows.
 * - Baseline (csv-parse-child.ts): nothing of erp-bridge — csv-parse alone with `columns: true` and
 *   the generator's delimiter and quote, over the file's bytes decoded by Node's own streaming
 *   windows-1252 decoder; CPU from opening the file to the last record (module loading left out).
 * - Medians over the runs are reported, with each run's figure beside them (the spread).
 *
 *   npm run bench:sync                                   # build, then 3 runs of 1,000,000 rows
 *   BENCH_ROWS=100000 BENCH_RUNS=5 npm run bench:sync
 *   BENCH_SYNC_NODE_ARGS=--cpu-prof npm run bench:sync   # profile the sync (.cpuprofile in the repo root)
 *   BENCH_SKIP_BUILD=1 npm run bench:sync                # use dist/ as it is
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGermanExport } from './german-export.js';
import { buildUnlessSkipped, fmt, mb, median, spread, startSandboxProcess } from './sandbox-process.js';
import { type ChildFigures, measureCsvParse, measureSync, type ParseFigures } from './sync-process.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const SANDBOX_HEAP_MB = Number(process.env.BENCH_SANDBOX_HEAP_MB ?? 8192);
const syncNodeArgs = (process.env.BENCH_SYNC_NODE_ARGS ?? '').split(' ').filter(Boolean);
const TARGET_RATIO = 2;
const TARGET_RSS_MB = 200;

interface RunFigures {
  parse: ParseFigures;
  sync: ChildFigures;
  /** The same sync of an export without rows: what a run costs whatever its size. */
  fixed: ChildFigures;
  sandboxCpuMicros: number;
}

/** The header names the columns; the closing balance line is a record to csv-parse. */
const measureParse = (csvFile: string) => measureCsvParse(csvFile, ROWS + 1);

const perRecord = (cpuMicros: number) => cpuMicros / ROWS;
/** The sync's CPU per record without the fixed cost of a run. */
const syncPerRecord = (run: RunFigures) => perRecord(run.sync.cpuMicros - run.fixed.cpuMicros);
buildUnlessSkipped();

const workDir = await mkdtemp(join(tmpdir(), 'erp-bridge-bench-sync-'));
const sandbox = await startSandboxProcess([`--max-old-space-size=${SANDBOX_HEAP_MB}`]);
const runs: RunFigures[] = [];
try {
  const generated = performance.now();
  const exported = await writeGermanExport(workDir, ROWS, CONCURRENCY);
  const empty = await writeGermanExport(await mkdtemp(join(workDir, 'empty-')), 0, CONCURRENCY);
  process.stderr.write(
    `generated ${ROWS} rows (${fmt(exported.bytes / 1e6, 1)} MB windows-1252) in ${fmt((performance.now() - generated) / 1000, 1)} s: ${exported.csvFile}\n`,
  );
  for (let run = 1; run <= RUNS; run++) {
    // Alternate which goes first, so neither always meets a warmer page cache or a cooler CPU.
    let parse: ParseFigures | undefined;
    if (run % 2 === 1) parse = await measureParse(exported.csvFile);
    const sync = await measureSync(sandbox, exported.feedFile, ROWS, workDir, syncNodeArgs);
    parse ??= await measureParse(exported.csvFile);
    const fixed = (await measureSync(sandbox, empty.feedFile, 0, workDir)).figures;
    const figures = { parse, sync: sync.figures, fixed, sandboxCpuMicros: sync.sandboxCpuMicros };
    runs.push(figures);
    const syncCpu = syncPerRecord(figures);
    process.stderr.write(
      `run ${run}: csv-parse ${fmt(perRecord(parse.cpuMicros))} µs/record, ` +
        `sync ${fmt(syncCpu)} µs/record (whole process ${fmt(perRecord(sync.figures.cpuMicros))}, ` +
        `fixed ${fmt(fixed.cpuMicros / 1e6)} s), ratio ${fmt(syncCpu / perRecord(parse.cpuMicros))} ` +
        `(whole process ${fmt(figures.sync.cpuMicros / parse.cpuMicros)}), ` +
        `peak RSS ${fmt(mb(sync.figures.maxRssKb), 0)} MB (csv-parse ${fmt(mb(parse.maxRssKb), 0)} MB), ` +
        `${fmt(ROWS / (sync.figures.wallMs / 1000), 0)} records/s ` +
        `(sandbox, excluded: ${fmt(perRecord(sync.sandboxCpuMicros))} µs/record)\n`,
    );
  }
} finally {
  await sandbox.stop();
  await rm(workDir, { recursive: true, force: true });
}

const verdict = (ok: boolean) => (ok ? 'OK' : 'OVER TARGET');
const ratios = runs.map((r) => syncPerRecord(r) / perRecord(r.parse.cpuMicros));
const maxRss = Math.max(...runs.map((r) => mb(r.sync.maxRssKb)));
console.log(
  `sync benchmark: ${ROWS} rows, ${RUNS} runs (medians, then each run's figure), concurrency ${CONCURRENCY}, node ${process.version}`,
);
console.log(
  `csv-parse alone             CPU/record ${spread(runs.map((r) => perRecord(r.parse.cpuMicros)))} µs`,
);
console.log(
  `erp-bridge sync             CPU/record ${spread(runs.map(syncPerRecord))} µs without the fixed cost`,
);
console.log(
  `                            CPU/record ${spread(runs.map((r) => perRecord(r.sync.cpuMicros)))} µs whole process`,
);
console.log(
  `fixed cost of a sync        ${spread(runs.map((r) => r.fixed.cpuMicros / 1e6))} s CPU (empty export)`,
);
console.log(
  `ratio sync / csv-parse      ${spread(ratios)} without the fixed cost   target <= ${TARGET_RATIO}: ${verdict(median(ratios) <= TARGET_RATIO)}`,
);
console.log(
  `                            ${spread(runs.map((r) => r.sync.cpuMicros / r.parse.cpuMicros))} whole process`,
);
console.log(
  `sync peak RSS               ${spread(
    runs.map((r) => mb(r.sync.maxRssKb)),
    0,
  )} MB   target < ${TARGET_RSS_MB} MB: ${verdict(maxRss < TARGET_RSS_MB)}`,
);
console.log(
  `csv-parse peak RSS          ${spread(
    runs.map((r) => mb(r.parse.maxRssKb)),
    0,
  )} MB (${fmt(median(runs.map((r) => mb(r.parse.rssBeforeKb))), 0)} MB of it before parsing: node, tsx, modules)`,
);
console.log(
  `sync throughput             ${spread(
    runs.map((r) => ROWS / (r.sync.wallMs / 1000)),
    0,
  )} records/s (wall, sandbox on the same machine)`,
);
