import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { FleetConfig } from '../../src/fleet/fleet-config.js';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import type { fleetTestWorld } from './fleet-harness.js';
import { type GeneratedExport, transactionsExport } from './generated-exports.js';
import { HANG_GUARD_MS } from './hang-guard.js';
import { expectExactlyOnce } from './run-checks.js';

/**
 * `erp-bridge` as operators run it, for the multi-process fleet tests: real child processes from
 * source (tsx), with exactly the environment the test gives them, their JSON log lines parsed as
 * they arrive, and every one of them killed after each test.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export type LogEntry = Record<string, unknown>;

/**
 * Per-test timeout of the multi-process tests. A test takes 5-15 s alone (each child's tsx start
 * is about 3 s of CPU), but 25-80 s at load 14 on two cores, and about 2.5 times that at load 35
 * (several helpers on this machine): the work of several processes is inherently long there.
 */
export const SLOW_MACHINE_TIMEOUT_MS = 300_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The environment of a fleet process: the harness's Redis and prefix, the sandbox's credentials,
 * short job locks and slot leases (a killed worker's jobs and slots come back within seconds), a
 * short shutdown grace and an admin server on a free port each (several workers share this host;
 * each logs its URL). Nothing else leaks in from the developer's shell.
 */
export function fleetProcessEnv(
  config: Pick<FleetConfig, 'redisUrl' | 'prefix'>,
  sandbox: SandboxHandle,
  overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    REDIS_URL: config.redisUrl,
    ERP_BRIDGE_QUEUE_PREFIX: config.prefix,
    // Generated exports and their feed files live in temp dirs: the fleet's feed directory.
    ERP_BRIDGE_FEEDS_DIR: tmpdir(),
    // Not shorter: a process starved of CPU for longer than a lock (2 s was, at load 25 on two
    // cores) loses it, and a fault-free run replays a chunk (1,000 records skipped, not created).
    ERP_BRIDGE_JOB_LOCK_S: '10',
    ERP_BRIDGE_SLOT_LEASE_S: '10',
    ERP_BRIDGE_SHUTDOWN_GRACE_S: '5',
    ERP_BRIDGE_ADMIN_PORT: '0',
    PARTNER_API_URL: sandbox.url,
    PARTNER_AUTH_URL: sandbox.authUrl,
    PARTNER_CLIENT_ID: sandbox.clientId,
    PARTNER_CLIENT_SECRET: sandbox.clientSecret,
    ...overrides,
  };
}

type Waiter = { match: (entry: LogEntry) => boolean; found: (entry: LogEntry) => void };

/** One `erp-bridge` child process: its output so far, its parsed JSON log lines, its exit. */
export class CliProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  /** stdout lines that are JSON objects (the log with --log-format json), in arrival order. */
  readonly entries: LogEntry[] = [];
  stdout = '';
  stderr = '';
  private partial = '';
  private readonly waiters = new Set<Waiter>();
  private exit: Exit | undefined;

  constructor(
    readonly args: readonly string[],
    env: NodeJS.ProcessEnv,
  ) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Still running (not exited, whatever the reason). */
  get running(): boolean {
    return this.exit === undefined;
  }

  /** The first log entry from now on that matches; rejects on timeout or exit, naming the process. */
  nextLog(match: (entry: LogEntry) => boolean, timeoutMs = HANG_GUARD_MS): Promise<LogEntry> {
    return firstLogOf([this], match, timeoutMs).then(({ entry }) => entry);
  }

  /** A log entry already seen or still to come that matches. */
  async log(match: (entry: LogEntry) => boolean, timeoutMs = HANG_GUARD_MS): Promise<LogEntry> {
    return this.entries.find(match) ?? this.nextLog(match, timeoutMs);
  }

  logged(msg: string): LogEntry[] {
    return this.entries.filter((e) => e.msg === msg);
  }

  /** Sends `signal` and resolves with the exit; SIGKILL if it has not exited after `timeoutMs`. */
  async stop(signal: NodeJS.Signals = 'SIGKILL', timeoutMs = 10_000): Promise<Exit> {
    if (this.exit) return this.exit;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** For failure messages: what ran, how it ended and the tail of its output. */
  describe(): string {
    const tail = (text: string) => text.split('\n').slice(-25).join('\n');
    const state = this.exit ? `exited (code ${this.exit.code}, signal ${this.exit.signal})` : 'running';
    return `erp-bridge ${this.args.join(' ')} [pid ${this.pid}, ${state}]\n--- stdout (tail)\n${tail(this.stdout)}\n--- stderr (tail)\n${tail(this.stderr)}`;
  }

  /** @internal */
  addWaiter(waiter: Waiter): () => void {
    this.waiters.add(waiter);
    return () => this.waiters.delete(waiter);
  }

  private onStdout(text: string): void {
    this.stdout += text;
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      let entry: LogEntry;
      try {
        entry = JSON.parse(line) as LogEntry;
      } catch {
        continue;
      }
      this.entries.push(entry);
      for (const waiter of this.waiters) if (waiter.match(entry)) waiter.found(entry);
    }
  }
}

/**
 * The first log entry from now on that matches, from whichever of `processes` logs it first;
 * rejects after `timeoutMs`, or once all of them have exited, with their output.
 */
export function firstLogOf(
  processes: readonly CliProcess[],
  match: (entry: LogEntry) => boolean,
  timeoutMs = HANG_GUARD_MS,
): Promise<{ process: CliProcess; entry: LogEntry }> {
  return new Promise((resolve, reject) => {
    const removers: (() => void)[] = [];
    const done = () => {
      clearTimeout(timer);
      for (const remove of removers) remove();
    };
    const fail = (why: string) => {
      done();
      reject(new Error(`${why}\n${processes.map((p) => p.describe()).join('\n')}`));
    };
    const timer = setTimeout(() => fail(`no matching log line within ${timeoutMs} ms`), timeoutMs);
    for (const proc of processes)
      removers.push(
        proc.addWaiter({
          match,
          found: (entry) => {
            done();
            resolve({ process: proc, entry });
          },
        }),
      );
    let alive = processes.length;
    for (const proc of processes)
      void proc.exited.then(() => {
        alive -= 1;
        if (alive === 0) fail('every process exited before logging a matching line');
      });
  });
}

/** A partner API call as a worker logs it at debug level, once answered. */
export const answered =
  (operation: string) =>
  (entry: LogEntry): boolean =>
    entry.msg === 'partner api request' && entry.operation === operation;

/**
 * Starts `erp-bridge` processes for a test file and kills every one still running after each test
 * (register it after fleetTestWorld, so the processes are gone before the fleet and sandbox reset).
 */
export function cliProcesses() {
  const live = new Set<CliProcess>();
  afterEach(async () => {
    await Promise.all([...live].map((p) => p.stop('SIGKILL')));
    live.clear();
  });
  const start = (args: string[], env: NodeJS.ProcessEnv) => {
    const proc = new CliProcess(args, env);
    live.add(proc);
    return proc;
  };
  return {
    /** `count` `erp-bridge worker` processes, resolved once each logged "worker started". */
    workers(
      env: NodeJS.ProcessEnv,
      count: number,
      options: { concurrency?: number; logLevel?: string } = {},
    ) {
      const args = [
        'worker',
        '--concurrency',
        String(options.concurrency ?? 4),
        '--log-format',
        'json',
        '--log-level',
        options.logLevel ?? 'info',
      ];
      return Promise.all(
        Array.from({ length: count }, async () => {
          const worker = start(args, env);
          await worker.log((e) => e.msg === 'worker started');
          return worker;
        }),
      );
    },
    /** A long-running command (e.g. `scheduler`), stopped after the test. */
    start,
    /** A one-shot command (enqueue, runs, report): resolves once it exited, with its output. */
    async run(args: string[], env: NodeJS.ProcessEnv) {
      const command = start(args, env);
      const exit = await command.exited;
      return { ...exit, stdout: command.stdout, stderr: command.stderr, describe: () => command.describe() };
    },
  };
}

export type CliProcesses = ReturnType<typeof cliProcesses>;
type World = ReturnType<typeof fleetTestWorld>;
type Fleet = ReturnType<World['start']>;

/**
 * A fleet for one test: the world's producer side on a fresh prefix (with `fleet` overrides, e.g.
 * another Redis) and `count` worker processes on the same Redis and prefix, each taking jobs
 * (with `env` overrides of fleetProcessEnv).
 */
export async function startFleet(
  world: World,
  cli: CliProcesses,
  count: number,
  options: {
    concurrency?: number;
    logLevel?: string;
    fleet?: Partial<FleetConfig>;
    env?: Record<string, string>;
  } = {},
) {
  const fleet = world.start(options.fleet);
  const env = fleetProcessEnv(fleet.config, world.sandbox(), options.env);
  return { fleet, env, workers: await cli.workers(env, count, options) };
}

/** Enqueues a generated export of `rows` records, all valid (exact counts), two chunks in flight at once. */
export async function enqueueExport(fleet: Fleet, name: string, rows: number) {
  const exp = transactionsExport({ rows, name, invalidRows: [], excludedRows: [], concurrency: 2 });
  const [run] = await fleet.enqueue(exp.feedFile);
  return { exp, runId: String(run?.runId) };
}

/**
 * The run's summary once it finished (with the processes' output if it does not within
 * `timeoutMs`), after checking that it sent every record of `exp` exactly once (expectExactlyOnce).
 */
export async function finishedExactlyOnce(
  world: World,
  fleet: Fleet,
  run: { runId: string; exp: GeneratedExport },
  processes: readonly CliProcess[],
  timeoutMs = HANG_GUARD_MS,
) {
  const summary = await explained(fleet.finished(run.runId, timeoutMs), processes);
  expectExactlyOnce({ summary, outcomes: await fleet.outcomes(run.runId) }, world.transactions(), run.exp);
  return summary;
}

/** Awaits `promise`; if it rejects (a run that never finishes), the processes' output is in the error. */
export async function explained<T>(promise: Promise<T>, processes: readonly CliProcess[]): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n${processes.map((p) => p.describe()).join('\n')}`);
  }
}

/** Polls `condition` every 20 ms until it holds; fails after `timeoutMs`, saying `what` it waited for. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
