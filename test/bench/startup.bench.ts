/**
 * What one call of the CLI costs before it does its work (issue 30 point 1): each command of the
 * built CLI beside `node -e 0` (Node's own start, nothing of ours), CPU (user + system, from the
 * process's own resourceUsage at exit: the same preloaded hook for every command and the baseline),
 * wall time and peak RSS; medians of alternated runs (each round runs the commands in a rotated
 * order, so none always meets a warmer cache or a cooler CPU). `sync` is of a 10-row export into a
 * sandbox in its own process (a local service; its CPU is not the sync's); `check` reads the same
 * export without a service.
 *
 *   npm run bench:startup                        # build, then 15 rounds
 *   BENCH_RUNS=31 BENCH_SKIP_BUILD=1 npm run bench:startup
 *   BENCH_CLI=/tmp/old/dist/src/cli/main.js BENCH_SKIP_BUILD=1 npm run bench:startup   # another build
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGermanExport } from './german-export.js';
import { buildUnlessSkipped, fmt, mb, median, startSandboxProcess } from './sandbox-process.js';
import { BUILT_CLI, type ChildFigures, measureSync, RUSAGE_HOOK, runChild } from './sync-process.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ROWS = 10;
const CLI = BUILT_CLI;

interface Measured {
  name: string;
  /** CPU (ms) at most, where the issue sets one. */
  targetCpuMs?: number;
  run(workDir: string): Promise<ChildFigures>;
}

/** A child with the CPU hook; its whole-process CPU, peak RSS and wall time. */
async function measureChild(
  workDir: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): Promise<ChildFigures> {
  const dir = await mkdtemp(join(workDir, 'call-'));
  const rusageFile = join(dir, 'rusage.json');
  const { wallMs } = await runChild(args.join(' '), ['--import', RUSAGE_HOOK, ...args], {
    ...(env ?? process.env),
    BENCH_RUSAGE_FILE: rusageFile,
  });
  const usage = JSON.parse(await readFile(rusageFile, 'utf8')) as Omit<ChildFigures, 'wallMs'>;
  await rm(dir, { recursive: true, force: true });
  return { ...usage, wallMs };
}

buildUnlessSkipped();
const workDir = await mkdtemp(join(tmpdir(), 'erp-bridge-bench-startup-'));
const sandbox = await startSandboxProcess();
const figures = new Map<string, ChildFigures[]>();
let commands: Measured[] = [];
try {
  const exported = await writeGermanExport(workDir, ROWS);
  commands = [
    { name: 'node -e 0 (baseline)', run: (dir) => measureChild(dir, ['-e', '0']) },
    { name: 'erp-bridge --version', targetCpuMs: 150, run: (dir) => measureChild(dir, [CLI, '--version']) },
    { name: 'erp-bridge --help', targetCpuMs: 150, run: (dir) => measureChild(dir, [CLI, '--help']) },
    { name: 'erp-bridge sync --help', run: (dir) => measureChild(dir, [CLI, 'sync', '--help']) },
    {
      name: `erp-bridge sync (${ROWS} rows)`,
      targetCpuMs: 350,
      run: async (dir) => (await measureSync(sandbox, exported.feedFile, ROWS, dir)).figures,
    },
    {
      name: `erp-bridge check (${ROWS} rows)`,
      run: (dir) => measureChild(dir, [CLI, 'check', exported.feedFile]),
    },
  ];
  for (let round = 0; round < RUNS; round++) {
    const order = commands.map((_, i) => commands[(i + round) % commands.length] as Measured);
    for (const command of order) {
      const measured = await command.run(workDir);
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
