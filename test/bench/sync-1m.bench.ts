/**
 * CPU per record and peak RSS of `erp-bridge sync` on a generated 1,000,000-row bank export in
 * German conventions (german-export.ts), against the sandbox with zero latency and no faults, next
 * to csv-parse alone parsing the same file. Targets: the sync costs at most 2x the CPU per record of
 * the baseline, and its process peaks under 256 MB RSS.
 *
 * - The sandbox runs in its own process (sandbox-child.ts) with a large heap, as it stores every
 *   transaction; it is reset (and its faults set to none) before each sync, and its CPU is not ours.
 * - Every measurement is a fresh child process, so CPU and peak RSS are per process. Each run
 *   measures the baseline and the sync side by side, in alternating order, on the same file.
 * - Sync: the real CLI from the build (`node dist/src/cli/main.js sync <feed> --log-format json
 *   --no-progress`), no tsx; CPU and peak RSS of the whole process (process.resourceUsage() in an
 *   exit hook). Its CPU per record leaves out the fixed cost of a run (start-up, module loading,
 *   token, target bank account, report files), measured by the same sync of an export without rows:
 *   (CPU of the full sync - CPU of the empty sync) / rows. The whole-process figure is printed too.
 * - Baseline (csv-parse-child.ts): read, decoded with iconv-lite and parsed exactly as erp-bridge
 *   does; CPU from opening the file to the last record (its module loading left out likewise).
 * - Medians over the runs are reported.
 *
 *   npm run bench:sync                                   # build, then 3 runs of 1,000,000 rows
 *   BENCH_ROWS=100000 BENCH_RUNS=5 npm run bench:sync
 *   BENCH_SYNC_NODE_ARGS=--cpu-prof npm run bench:sync   # profile the sync (.cpuprofile in the repo root)
 *   BENCH_SKIP_BUILD=1 npm run bench:sync                # use dist/ as it is
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGermanExport } from './german-export.js';
import { median, repoRoot, type SandboxProcess, startSandboxProcess } from './sandbox-process.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const SANDBOX_HEAP_MB = Number(process.env.BENCH_SANDBOX_HEAP_MB ?? 8192);
const syncNodeArgs = (process.env.BENCH_SYNC_NODE_ARGS ?? '').split(' ').filter(Boolean);
const TARGET_RATIO = 2;
const TARGET_RSS_MB = 256;

interface ChildFigures {
  cpuMicros: number;
  maxRssKb: number;
  wallMs: number;
}

interface RunFigures {
  parse: ChildFigures;
  sync: ChildFigures;
  /** The same sync of an export without rows: what a run costs whatever its size. */
  fixed: ChildFigures;
  sandboxCpuMicros: number;
}

/** Runs a child to its end; its stdout, and a failure naming it unless it exits 0. */
function runChild(
  what: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stdout: string; wallMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const wallMs = performance.now() - started;
      if (code === 0) resolve({ stdout, wallMs });
      else reject(new Error(`${what} exited with ${code ?? signal}:\n${stderr.slice(-2000)}`));
    });
  });
}

/** Preloaded into the sync process: writes its whole-process CPU and peak RSS when it exits. */
const RUSAGE_HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs';" +
    "process.on('exit', () => { const u = process.resourceUsage();" +
    ' writeFileSync(process.env.BENCH_RUSAGE_FILE, JSON.stringify({' +
    ' cpuMicros: u.userCPUTime + u.systemCPUTime, maxRssKb: u.maxRSS })); });',
)}`;

async function measureParse(feedFile: string): Promise<ChildFigures> {
  const { stdout } = await runChild('csv-parse baseline', [
    '--import',
    'tsx',
    'test/bench/csv-parse-child.ts',
    feedFile,
  ]);
  const printed = JSON.parse(stdout) as ChildFigures & { records: number };
  // The header and the closing balance line are records to csv-parse too.
  if (printed.records !== ROWS + 2)
    throw new Error(`csv-parse read ${printed.records} records, expected ${ROWS + 2}`);
  return { cpuMicros: printed.cpuMicros, maxRssKb: printed.maxRssKb, wallMs: printed.wallMs };
}

interface SyncSummary {
  state: string;
  counts: Record<string, number>;
}

async function measureSync(
  sandbox: SandboxProcess,
  feedFile: string,
  rows: number,
  workDir: string,
): Promise<{ figures: ChildFigures; sandboxCpuMicros: number }> {
  await sandbox.reset();
  await sandbox.admin('PUT', '/faults', {});
  const reportDir = await mkdtemp(join(workDir, 'reports-'));
  const rusageFile = join(reportDir, 'rusage.json');
  const sandboxCpuBefore = await sandbox.cpuMicros();
  const env = {
    ...process.env,
    PARTNER_API_URL: sandbox.url,
    PARTNER_AUTH_URL: sandbox.authUrl,
    PARTNER_CLIENT_ID: sandbox.clientId,
    PARTNER_CLIENT_SECRET: sandbox.clientSecret,
    BENCH_RUSAGE_FILE: rusageFile,
  };
  const { wallMs } = await runChild(
    'erp-bridge sync',
    [
      ...syncNodeArgs,
      '--import',
      RUSAGE_HOOK,
      'dist/src/cli/main.js',
      'sync',
      feedFile,
      '--log-format',
      'json',
      '--no-progress',
      '--report-dir',
      reportDir,
    ],
    env,
  );
  const sandboxCpuMicros = (await sandbox.cpuMicros()) - sandboxCpuBefore;
  const usage = JSON.parse(await readFile(rusageFile, 'utf8')) as Omit<ChildFigures, 'wallMs'>;
  const [runDir] = (await readdir(reportDir)).filter(
    (name) => name !== 'rusage.json' && !name.startsWith('.'),
  );
  const summary = JSON.parse(
    await readFile(join(reportDir, runDir ?? '', 'summary.json'), 'utf8'),
  ) as SyncSummary;
  if (summary.state !== 'completed' || summary.counts.created !== rows)
    throw new Error(`sync did not create every record: ${JSON.stringify(summary)}`);
  const stats = (await sandbox.admin('GET', '/stats')) as {
    requests: Record<string, Record<string, number>>;
  };
  const refused = Object.entries(stats.requests).flatMap(([op, byStatus]) =>
    Object.keys(byStatus)
      .filter((status) => status !== '200')
      .map((status) => `${op} ${status}`),
  );
  if (refused.length > 0) throw new Error(`the sandbox throttled or refused requests: ${refused.join(', ')}`);
  await rm(reportDir, { recursive: true, force: true });
  return { figures: { ...usage, wallMs }, sandboxCpuMicros };
}

const perRecord = (cpuMicros: number) => cpuMicros / ROWS;
/** The sync's CPU per record without the fixed cost of a run. */
const syncPerRecord = (run: RunFigures) => perRecord(run.sync.cpuMicros - run.fixed.cpuMicros);
const mb = (kb: number) => kb / 1024;
const fmt = (n: number, digits = 2) => n.toFixed(digits);

const build = process.env.BENCH_SKIP_BUILD
  ? undefined
  : spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
if (build && build.status !== 0) throw new Error('npm run build failed');

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
    let parse: ChildFigures | undefined;
    if (run % 2 === 1) parse = await measureParse(exported.feedFile);
    const sync = await measureSync(sandbox, exported.feedFile, ROWS, workDir);
    parse ??= await measureParse(exported.feedFile);
    const fixed = (await measureSync(sandbox, empty.feedFile, 0, workDir)).figures;
    const figures = { parse, sync: sync.figures, fixed, sandboxCpuMicros: sync.sandboxCpuMicros };
    runs.push(figures);
    const syncCpu = syncPerRecord(figures);
    process.stderr.write(
      `run ${run}: csv-parse ${fmt(perRecord(parse.cpuMicros))} µs/record, ` +
        `sync ${fmt(syncCpu)} µs/record (whole process ${fmt(perRecord(sync.figures.cpuMicros))}, ` +
        `fixed ${fmt(fixed.cpuMicros / 1e6)} s), ratio ${fmt(syncCpu / perRecord(parse.cpuMicros))}, ` +
        `peak RSS ${fmt(mb(sync.figures.maxRssKb), 0)} MB (csv-parse ${fmt(mb(parse.maxRssKb), 0)} MB), ` +
        `${fmt(ROWS / (sync.figures.wallMs / 1000), 0)} records/s ` +
        `(sandbox, excluded: ${fmt(perRecord(sync.sandboxCpuMicros))} µs/record)\n`,
    );
  }
} finally {
  await sandbox.stop();
  await rm(workDir, { recursive: true, force: true });
}

const parseCpu = median(runs.map((r) => perRecord(r.parse.cpuMicros)));
const syncCpu = median(runs.map(syncPerRecord));
const wholeCpu = median(runs.map((r) => perRecord(r.sync.cpuMicros)));
const ratio = median(runs.map((r) => syncPerRecord(r) / perRecord(r.parse.cpuMicros)));
const wholeRatio = median(runs.map((r) => r.sync.cpuMicros / r.parse.cpuMicros));
const rss = median(runs.map((r) => mb(r.sync.maxRssKb)));
const maxRss = Math.max(...runs.map((r) => mb(r.sync.maxRssKb)));
const rate = median(runs.map((r) => ROWS / (r.sync.wallMs / 1000)));
const verdict = (ok: boolean) => (ok ? 'OK' : 'OVER TARGET');
console.log(
  `sync benchmark: ${ROWS} rows, ${RUNS} runs (medians), concurrency ${CONCURRENCY}, node ${process.version}`,
);
console.log(`csv-parse alone             CPU/record ${fmt(parseCpu)} µs`);
console.log(
  `erp-bridge sync             CPU/record ${fmt(syncCpu)} µs (whole process, start-up included: ${fmt(wholeCpu)} µs)`,
);
console.log(
  `ratio sync / csv-parse      ${fmt(ratio)}   target <= ${TARGET_RATIO}: ${verdict(ratio <= TARGET_RATIO)} (whole process: ${fmt(wholeRatio)})`,
);
console.log(
  `sync peak RSS               ${fmt(rss, 0)} MB (max ${fmt(maxRss, 0)} MB)   target < ${TARGET_RSS_MB} MB: ${verdict(maxRss < TARGET_RSS_MB)}`,
);
console.log(`sync throughput             ${fmt(rate, 0)} records/s (wall, sandbox on the same machine)`);
