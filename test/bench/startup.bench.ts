/**
 * What one call of the CLI costs before it does its work (issue 30 point 1): each command of the
 * built CLI beside `node -e 0` (Node's own start, nothing of ours), CPU (user + system of the whole
 * process, all its threads), wall time and peak RSS as GNU time (/usr/bin/time, Debian's `time`
 * package) reads them from the kernel when the process ends, so nothing is preloaded into the
 * measured process; medians of alternated runs (each round runs the commands in a rotated order,
 * so none always meets a warmer cache or a cooler CPU). `sync` is of a 10-row export into a sandbox
 * in its own process (a local service; its CPU is not the sync's); `check` reads the same export
 * without a service.
 *
 *   npm run bench:startup                        # build, then 15 rounds
 *   BENCH_RUNS=31 BENCH_SKIP_BUILD=1 npm run bench:startup
 *   BENCH_CLI=/tmp/old/dist/src/cli/main.js BENCH_SKIP_BUILD=1 npm run bench:startup   # another build
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGermanExport } from './german-export.js';
import {
  buildUnlessSkipped,
  fmt,
  mb,
  median,
  repoRoot,
  type SandboxProcess,
  startSandboxProcess,
} from './sandbox-process.js';
import { BUILT_CLI, type ChildFigures, expectCreated, sandboxEnv } from './sync-process.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ROWS = 10;
const CLI = BUILT_CLI;

interface Measured {
  name: string;
  /** CPU (ms) at most, where the issue sets one. */
  targetCpuMs?: number;
  run(): Promise<ChildFigures>;
}

const GNU_TIME = '/usr/bin/time';

/** `node <args>` under GNU time: its CPU, wall time and peak RSS; fails naming it unless it exits 0. */
function measureChild(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ChildFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(GNU_TIME, ['-f', 'figures %e %U %S %M', process.execPath, ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const figures = /^figures ([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/m.exec(stderr);
      if (code !== 0 || !figures) {
        reject(new Error(`node ${args.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}`));
        return;
      }
      const [, wall, user, system, rssKb] = figures.map(Number) as [number, number, number, number, number];
      resolve({ wallMs: wall * 1000, cpuMicros: (user + system) * 1e6, maxRssKb: rssKb });
    });
  });
}

/** The 10-row sync into the sandbox, reset first; fails unless it created every row. */
async function measureSmallSync(
  sandbox: SandboxProcess,
  feedFile: string,
  workDir: string,
): Promise<ChildFigures> {
  await sandbox.reset();
  const reportDir = await mkdtemp(join(workDir, 'reports-'));
  const figures = await measureChild(
    [CLI, 'sync', feedFile, '--log-format', 'json', '--no-progress', '--report-dir', reportDir],
    sandboxEnv(sandbox),
  );
  await expectCreated(reportDir, ROWS);
  await rm(reportDir, { recursive: true, force: true });
  return figures;
}

if (!existsSync(GNU_TIME)) throw new Error(`${GNU_TIME} is missing: install Debian's \`time\` package`);
buildUnlessSkipped();
const workDir = await mkdtemp(join(tmpdir(), 'erp-bridge-bench-startup-'));
const sandbox = await startSandboxProcess();
const figures = new Map<string, ChildFigures[]>();
let commands: Measured[] = [];
try {
  const exported = await writeGermanExport(workDir, ROWS);
  commands = [
    { name: 'node -e 0 (baseline)', run: () => measureChild(['-e', '0']) },
    { name: 'erp-bridge --version', targetCpuMs: 150, run: () => measureChild([CLI, '--version']) },
    { name: 'erp-bridge --help', targetCpuMs: 150, run: () => measureChild([CLI, '--help']) },
    { name: 'erp-bridge sync --help', run: () => measureChild([CLI, 'sync', '--help']) },
    {
      name: `erp-bridge sync (${ROWS} rows)`,
      targetCpuMs: 350,
      run: () => measureSmallSync(sandbox, exported.feedFile, workDir),
    },
    {
      name: `erp-bridge check (${ROWS} rows)`,
      run: () => measureChild([CLI, 'check', exported.feedFile]),
    },
  ];
  for (let round = 0; round < RUNS; round++) {
    const order = commands.map((_, i) => commands[(i + round) % commands.length] as Measured);
    for (const command of order) {
      const measured = await command.run();
      figures.set(command.name, [...(figures.get(command.name) ?? []), measured]);
    }
    process.stderr.write(`round ${round + 1}/${RUNS}\n`);
  }
} finally {
  await sandbox.stop();
  await rm(workDir, { recursive: true, force: true });
}

const range = (values: readonly number[], digits: number) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}-${fmt(Math.max(...values), digits)})`;
console.log(`start-up benchmark: ${RUNS} alternated rounds, medians (min-max), node ${process.version}`);
console.log('| command | CPU ms | beyond node -e 0 | wall ms | peak RSS MB | target |');
console.log('| --- | --- | --- | --- | --- | --- |');
const baseline = median((figures.get(commands[0]?.name ?? '') ?? []).map((f) => f.cpuMicros / 1000));
for (const { name, targetCpuMs } of commands) {
  const runs = figures.get(name) ?? [];
  const cpuMs = runs.map((f) => f.cpuMicros / 1000);
  const verdict =
    targetCpuMs === undefined
      ? ''
      : `< ${targetCpuMs} ms CPU: ${median(cpuMs) < targetCpuMs ? 'OK' : 'OVER TARGET'}`;
  console.log(
    `| ${name} | ${range(cpuMs, 0)} | ${fmt(median(cpuMs) - baseline, 0)} | ${range(
      runs.map((f) => f.wallMs),
      0,
    )} | ${range(
      runs.map((f) => mb(f.maxRssKb)),
      0,
    )} | ${verdict} |`,
  );
}
