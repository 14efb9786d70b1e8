/**
 * Issue 16 point 3: `erp-bridge reconcile` of a bank account holding N transactions, beside the
 * `erp-bridge sync` of the same export that filled it, against the sandbox with zero latency and no
 * faults (sandbox-child.ts, in its own process; its CPU is not ours). Target: the reconcile takes at
 * most twice the sync's time; its memory stays bounded (peak RSS reported beside the sync's).
 *
 * - Each run: the sandbox is reset, the built CLI syncs the generated export (german-export.ts,
 *   every row created), then reconciles it (every record `equal`, the listing at page size 1000);
 *   each is a fresh process with its CPU and peak RSS (process.resourceUsage() in an exit hook).
 * - Medians over the runs, each run's figure beside them.
 *
 *   npm run bench:reconcile                                  # build, then 3 runs of 1,000,000 rows
 *   BENCH_ROWS=50000 BENCH_RUNS=1 npm run bench:reconcile    # a quick look (a shared machine)
 *   BENCH_SKIP_BUILD=1 npm run bench:reconcile               # use dist/ as it is
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGermanExport } from './german-export.js';
import {
  buildUnlessSkipped,
  fmt,
  mb,
  median,
  type SandboxProcess,
  spread,
  startSandboxProcess,
} from './sandbox-process.js';
import { type ChildFigures, measureSync, RUSAGE_HOOK, runChild, sandboxEnv } from './sync-process.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SANDBOX_HEAP_MB = Number(process.env.BENCH_SANDBOX_HEAP_MB ?? 8192);
const TARGET_RATIO = 2;

interface ReconcileSummary {
  state: string;
  counts: Record<string, number>;
}

/** One reconcile of the feed by the built CLI; fails unless every record is equal. */
async function measureReconcile(
  sandbox: SandboxProcess,
  feedFile: string,
  workDir: string,
): Promise<ChildFigures> {
  const reportDir = await mkdtemp(join(workDir, 'reconcile-'));
  const rusageFile = join(reportDir, 'rusage.json');
  const { wallMs } = await runChild(
    'erp-bridge reconcile',
    [
      '--import',
      RUSAGE_HOOK,
      'dist/src/cli/main.js',
      'reconcile',
      feedFile,
      '--log-format',
      'json',
      '--report-dir',
      reportDir,
    ],
    { ...sandboxEnv(sandbox), BENCH_RUSAGE_FILE: rusageFile },
  );
  const usage = JSON.parse(await readFile(rusageFile, 'utf8')) as Omit<ChildFigures, 'wallMs'>;
  const [dir] = (await readdir(reportDir)).filter((name) => name !== 'rusage.json');
  const summary = JSON.parse(
    await readFile(join(reportDir, dir ?? '', 'summary.json'), 'utf8'),
  ) as ReconcileSummary;
  if (summary.state !== 'equal' || summary.counts.equal !== ROWS)
    throw new Error(`reconcile did not find every record equal: ${JSON.stringify(summary.counts)}`);
  await rm(reportDir, { recursive: true, force: true });
  return { ...usage, wallMs };
}

buildUnlessSkipped();

const workDir = await mkdtemp(join(tmpdir(), 'erp-bridge-bench-reconcile-'));
const sandbox = await startSandboxProcess([`--max-old-space-size=${SANDBOX_HEAP_MB}`]);
const runs: { sync: ChildFigures; reconcile: ChildFigures }[] = [];
try {
  const exported = await writeGermanExport(workDir, ROWS, 2);
  for (let run = 1; run <= RUNS; run++) {
    const { figures: sync } = await measureSync(sandbox, exported.feedFile, ROWS, workDir);
    const reconcile = await measureReconcile(sandbox, exported.feedFile, workDir);
    runs.push({ sync, reconcile });
    process.stderr.write(
      `run ${run}: sync ${fmt(sync.wallMs / 1000)} s (peak RSS ${fmt(mb(sync.maxRssKb), 0)} MB), ` +
        `reconcile ${fmt(reconcile.wallMs / 1000)} s (peak RSS ${fmt(mb(reconcile.maxRssKb), 0)} MB), ` +
        `ratio ${fmt(reconcile.wallMs / sync.wallMs)}\n`,
    );
  }
} finally {
  await sandbox.stop();
  await rm(workDir, { recursive: true, force: true });
}

const ratios = runs.map((r) => r.reconcile.wallMs / r.sync.wallMs);
console.log(
  `reconcile benchmark: a bank account of ${ROWS} transactions, ${RUNS} runs, node ${process.version}`,
);
console.log(`sync (fills it)         wall ${spread(runs.map((r) => r.sync.wallMs / 1000))} s`);
console.log(`reconcile               wall ${spread(runs.map((r) => r.reconcile.wallMs / 1000))} s`);
console.log(
  `ratio reconcile / sync  ${spread(ratios)}   target <= ${TARGET_RATIO}: ${median(ratios) <= TARGET_RATIO ? 'OK' : 'OVER TARGET'}`,
);
console.log(
  `CPU per record          sync ${spread(runs.map((r) => r.sync.cpuMicros / ROWS))} µs, reconcile ${spread(runs.map((r) => r.reconcile.cpuMicros / ROWS))} µs`,
);
console.log(
  `peak RSS                sync ${spread(
    runs.map((r) => mb(r.sync.maxRssKb)),
    0,
  )} MB, reconcile ${spread(
    runs.map((r) => mb(r.reconcile.maxRssKb)),
    0,
  )} MB`,
);
