/**
 * Records/s, CPU per record and peak RSS of `erp-bridge sync` for every record kind (issue 15 point
 * 4), each on a generated CSV export of the kind (kind-exports.ts) against the sandbox in its own
 * process with no latency and no faults, beside csv-parse alone over the same file — the measurement
 * of the sync benchmark (sync-1m.bench.ts), per kind.
 *
 * - Sizes: BENCH_KIND_ROWS records (default 100,000) for the kinds the API writes in bulk
 *   (transactions, invoices, plans: up to 1,000 records a request); BENCH_KIND_SINGLE_ROWS (default
 *   5,000) for those it writes one request per record (bank-accounts, users, accounts, categories),
 *   whose syncs also list what the service holds once per chunk — a run of these is bounded by
 *   requests, and their real exports are small (an account's users, a partner's tenants).
 * - The sandbox is seeded (kind-exports.ts kindsSeed) with one customer account without user and
 *   bank-account limits, so that every kind can be created in bulk; it is reset before each sync.
 *   The real service's subscriptions limit users and bank accounts per account: there these
 *   figures are for the rows a subscription allows.
 * - Sync: the built CLI, CPU and peak RSS of its whole process; CPU per record without the fixed
 *   cost of a run (the same sync of the kind's export without rows), as in bench:sync. Every record
 *   must be created (measureSync checks the run's summary and that the sandbox refused nothing).
 * - Baseline (csv-parse-child.ts): csv-parse alone over the same file with its delimiter and quote,
 *   Node's own decoder for its encoding; nothing of erp-bridge. Ratio: sync CPU per record without
 *   the fixed cost over the baseline's.
 * - Each run measures the baseline and the sync of every kind side by side, alternating which goes
 *   first; medians over BENCH_RUNS (default 3) runs, each run's figure beside them.
 *
 *   npm run bench:kinds
 *   BENCH_KINDS=invoices,plans BENCH_KIND_ROWS=20000 BENCH_RUNS=1 npm run bench:kinds
 *   BENCH_SKIP_BUILD=1 npm run bench:kinds          # use dist/ as it is
 *   BENCH_SYNC_NODE_ARGS=--cpu-prof npm run bench:kinds
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECORD_KINDS, type RecordKind } from '../../src/kinds/registry.js';
import { type KindExport, kindsSeed, writeKindExport } from './kind-exports.js';
import { fmt, median, repoRoot, spread, startSandboxProcess } from './sandbox-process.js';
import { type ChildFigures, measureCsvParse, measureSync, type ParseFigures } from './sync-process.js';

const BULK_ROWS = Number(process.env.BENCH_KIND_ROWS ?? 100_000);
const SINGLE_ROWS = Number(process.env.BENCH_KIND_SINGLE_ROWS ?? 5_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SANDBOX_HEAP_MB = Number(process.env.BENCH_SANDBOX_HEAP_MB ?? 8192);
const syncNodeArgs = (process.env.BENCH_SYNC_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** The kinds the API creates in bulk; the others take one request per record. */
const BULK: ReadonlySet<RecordKind> = new Set(['transactions', 'invoices', 'plans']);

const chosen = (process.env.BENCH_KINDS ?? RECORD_KINDS.join(',')).split(',').filter(Boolean);
const isKind = (name: string): name is RecordKind => (RECORD_KINDS as readonly string[]).includes(name);
const kinds = chosen.map((name) => {
  if (!isKind(name))
    throw new Error(`BENCH_KINDS: unknown kind "${name}" (expected some of ${RECORD_KINDS.join(', ')})`);
  return name;
});

interface RunFigures {
  parse: ParseFigures;
  sync: ChildFigures;
  /** The same sync of the kind's export without rows: what a run costs whatever its size. */
  fixed: ChildFigures;
  /** Requests the sandbox answered during the sync. */
  requests: number;
}

interface KindInput {
  kind: RecordKind;
  full: KindExport;
  empty: KindExport;
}

const mb = (kb: number) => kb / 1024;
const parsePerRecord = (input: KindInput, run: RunFigures) => run.parse.cpuMicros / input.full.rows;
const syncPerRecord = (input: KindInput, run: RunFigures) =>
  (run.sync.cpuMicros - run.fixed.cpuMicros) / input.full.rows;
const ratio = (input: KindInput, run: RunFigures) => syncPerRecord(input, run) / parsePerRecord(input, run);
const rate = (input: KindInput, run: RunFigures) => input.full.rows / (run.sync.wallMs / 1000);

const build = process.env.BENCH_SKIP_BUILD
  ? undefined
  : spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
if (build && build.status !== 0) throw new Error('npm run build failed');

const workDir = await mkdtemp(join(tmpdir(), 'erp-bridge-bench-kinds-'));
const seedFile = join(workDir, 'seed.json');
await writeFile(seedFile, JSON.stringify(kindsSeed()));
const sandbox = await startSandboxProcess([`--max-old-space-size=${SANDBOX_HEAP_MB}`], {
  BENCH_SANDBOX_SEED: seedFile,
});
const results = new Map<RecordKind, RunFigures[]>();
const inputs: KindInput[] = [];
try {
  const generated = performance.now();
  for (const kind of kinds) {
    const dir = join(workDir, kind);
    await mkdir(join(dir, 'empty'), { recursive: true });
    const full = await writeKindExport(dir, kind, BULK.has(kind) ? BULK_ROWS : SINGLE_ROWS);
    const empty = await writeKindExport(join(dir, 'empty'), kind, 0);
    inputs.push({ kind, full, empty });
  }
  process.stderr.write(
    `generated in ${fmt((performance.now() - generated) / 1000, 1)} s: ${inputs
      .map(({ kind, full }) => `${kind} ${full.rows} rows ${fmt(full.bytes / 1e6, 1)} MB`)
      .join(', ')}\n`,
  );
  for (let run = 1; run <= RUNS; run++) {
    for (const input of inputs) {
      const { kind, full, empty } = input;
      const parse = () => measureCsvParse(full.csvFile, full.parsedRecords, full.layout);
      // Alternate which goes first, so neither always meets a warmer page cache or a cooler CPU.
      const parsedFirst = run % 2 === 1 ? await parse() : undefined;
      const { figures: sync, requests } = await measureSync(
        sandbox,
        full.feedFile,
        full.rows,
        workDir,
        syncNodeArgs,
      );
      const parsed = parsedFirst ?? (await parse());
      const fixed = (await measureSync(sandbox, empty.feedFile, 0, workDir, syncNodeArgs)).figures;
      const figures = { parse: parsed, sync, fixed, requests };
      results.set(kind, [...(results.get(kind) ?? []), figures]);
      process.stderr.write(
        `run ${run} ${kind}: sync ${fmt(rate(input, figures), 0)} records/s ${fmt(syncPerRecord(input, figures))} µs/record ` +
          `(fixed ${fmt(fixed.cpuMicros / 1e6)} s) peak RSS ${fmt(mb(sync.maxRssKb), 0)} MB; ` +
          `csv-parse ${fmt(parsePerRecord(input, figures))} µs/record; ratio ${fmt(ratio(input, figures))}; ` +
          `${requests} requests\n`,
      );
    }
  }
} finally {
  await sandbox.stop();
  await rm(workDir, { recursive: true, force: true });
}

console.log(
  `kinds benchmark: ${RUNS} runs (medians, then each run's figure), node ${process.version}; sandbox without latency in its own process`,
);
for (const input of inputs) {
  const runs = results.get(input.kind) ?? [];
  const of = (pick: (input: KindInput, run: RunFigures) => number, digits = 2) =>
    spread(
      runs.map((run) => pick(input, run)),
      digits,
    );
  console.log(
    `${input.kind}: ${input.full.rows} records, ${BULK.has(input.kind) ? 'bulk' : 'one request per record'}`,
  );
  console.log(`  sync              ${of(rate, 0)} records/s (wall, sandbox on the same machine)`);
  console.log(`  sync              ${of(syncPerRecord)} µs CPU/record without the fixed cost`);
  console.log(
    `  fixed cost        ${spread(runs.map((r) => r.fixed.cpuMicros / 1e6))} s CPU (the same sync without rows)`,
  );
  console.log(`  csv-parse alone   ${of(parsePerRecord)} µs CPU/record`);
  console.log(`  ratio             ${of(ratio)}`);
  console.log(
    `  requests/record   ${fmt(median(runs.map((r) => r.requests / input.full.rows)), 3)} (to the sandbox)`,
  );
  console.log(
    `  peak RSS          ${spread(
      runs.map((r) => mb(r.sync.maxRssKb)),
      0,
    )} MB (csv-parse ${fmt(median(runs.map((r) => mb(r.parse.maxRssKb))), 0)} MB)`,
  );
}
