/**
 * What the benchmarks that run `erp-bridge sync` share: a child process run to its end, and one
 * measured sync of a feed by the built CLI against the sandbox (reset and without faults first),
 * with the whole process's CPU and peak RSS and the sandbox's CPU beside it (never counted as
 * the sync's).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CsvLayout } from './german-export.js';
import { repoRoot, type SandboxProcess } from './sandbox-process.js';

export interface ChildFigures {
  cpuMicros: number;
  maxRssKb: number;
  wallMs: number;
}

/** Runs a child to its end; its stdout, and a failure naming it unless it exits 0. */
export function runChild(
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

export interface ParseFigures extends ChildFigures {
  /** The baseline's RSS when its clock started: node, tsx and the modules, not parsing's. */
  rssBeforeKb: number;
}

/**
 * The csv-parse baseline (csv-parse-child.ts) over a generated export, in a child of its own; fails
 * unless it parsed `records` records. `layout`: how the file is written (default: the German export).
 */
export async function measureCsvParse(
  csvFile: string,
  records: number,
  layout?: CsvLayout,
): Promise<ParseFigures> {
  const { stdout } = await runChild('csv-parse baseline', [
    '--import',
    'tsx',
    'test/bench/csv-parse-child.ts',
    csvFile,
    ...(layout ? [JSON.stringify(layout)] : []),
  ]);
  const printed = JSON.parse(stdout) as ParseFigures & { records: number };
  if (printed.records !== records)
    throw new Error(`csv-parse read ${printed.records} records of ${csvFile}, expected ${records}`);
  const { cpuMicros, maxRssKb, wallMs, rssBeforeKb } = printed;
  return { cpuMicros, maxRssKb, wallMs, rssBeforeKb };
}

/** Preloaded into the measured process: writes its whole-process CPU and peak RSS when it exits. */
export const RUSAGE_HOOK = `data:text/javascript,${encodeURIComponent(
  "import { writeFileSync } from 'node:fs';" +
    "process.on('exit', () => { const u = process.resourceUsage();" +
    ' writeFileSync(process.env.BENCH_RUSAGE_FILE, JSON.stringify({' +
    ' cpuMicros: u.userCPUTime + u.systemCPUTime, maxRssKb: u.maxRSS })); });',
)}`;

/** The CLI the benchmarks run: this checkout's build, or another's (BENCH_CLI, e.g. /tmp/old/dist/src/cli/main.js). */
export const BUILT_CLI = process.env.BENCH_CLI ?? 'dist/src/cli/main.js';

interface SyncSummary {
  state: string;
  counts: Record<string, number>;
}

/** The environment of an erp-bridge process that talks to the benchmark's sandbox. */
export const sandboxEnv = (sandbox: SandboxProcess): NodeJS.ProcessEnv => ({
  ...process.env,
  PARTNER_API_URL: sandbox.url,
  PARTNER_AUTH_URL: sandbox.authUrl,
  PARTNER_CLIENT_ID: sandbox.clientId,
  PARTNER_CLIENT_SECRET: sandbox.clientSecret,
});

/** Fails unless the one run in `reportDir` completed and created all `rows` records. */
export async function expectCreated(reportDir: string, rows: number): Promise<void> {
  const [runDir] = (await readdir(reportDir, { withFileTypes: true })).filter(
    (entry) => entry.isDirectory() && !entry.name.startsWith('.'),
  );
  const summary = JSON.parse(
    await readFile(join(reportDir, runDir?.name ?? '', 'summary.json'), 'utf8'),
  ) as SyncSummary;
  if (summary.state !== 'completed' || summary.counts.created !== rows)
    throw new Error(`sync did not create every record: ${JSON.stringify(summary)}`);
}

export async function measureSync(
  sandbox: SandboxProcess,
  feedFile: string,
  rows: number,
  workDir: string,
  nodeArgs: readonly string[] = [],
): Promise<{ figures: ChildFigures; sandboxCpuMicros: number; requests: number }> {
  await sandbox.reset();
  await sandbox.admin('PUT', '/faults', {});
  const reportDir = await mkdtemp(join(workDir, 'reports-'));
  const rusageFile = join(reportDir, 'rusage.json');
  const sandboxCpuBefore = await sandbox.cpuMicros();
  const env = { ...sandboxEnv(sandbox), BENCH_RUSAGE_FILE: rusageFile };
  const { wallMs } = await runChild(
    'erp-bridge sync',
    [
      ...nodeArgs,
      '--import',
      RUSAGE_HOOK,
      BUILT_CLI,
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
  await expectCreated(reportDir, rows);
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
  // Every request the sandbox answered in the run (token, lists, writes): how chatty a kind's sync is.
  const requests = Object.values(stats.requests)
    .flatMap((byStatus) => Object.values(byStatus))
    .reduce((sum, n) => sum + n, 0);
  return { figures: { ...usage, wallMs }, sandboxCpuMicros, requests };
}
