/**
 * What the benchmarks share: the sandbox started in a CHILD process (sandbox-child.ts: what
 * `erp-bridge sandbox` runs), so its CPU never counts as the client's, plus small helpers.
 */
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The one line the sandbox prints: where it listens and how to log in. */
export interface SandboxAddress {
  url: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface SandboxProcess extends SandboxAddress {
  /** An admin endpoint (`/_sandbox/...`) as JSON; a JSON `body` is sent when given. */
  admin(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown>;
  /** Sandbox CPU since it started (µs, user + system), from GET /_sandbox/stats. */
  cpuMicros(): Promise<number>;
  /** POST /_sandbox/reset: state, tokens, stats and faults back to how the sandbox started. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** The body of an answer as JSON; a non-2xx answer throws naming `what`. */
export async function json(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/**
 * Starts the sandbox child with extra node flags (e.g. --cpu-prof, --max-old-space-size) and
 * environment (BENCH_SANDBOX_SEED: a seed file replacing the default seed).
 */
export async function startSandboxProcess(
  nodeArgs: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'test/bench/sandbox-child.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code} before printing its line`)));
  });
  const address = JSON.parse(firstLine) as SandboxAddress;
  const admin = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) =>
    json(
      await fetch(`${address.authUrl}/_sandbox${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      }),
      `${method} /_sandbox${path}`,
    );
  return {
    ...address,
    admin,
    cpuMicros: async () => {
      const stats = (await admin('GET', '/stats')) as { cpu: { user: number; system: number } };
      return stats.cpu.user + stats.cpu.system;
    },
    reset: async () => {
      await admin('POST', '/reset');
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export const mb = (kb: number) => kb / 1024;
export const fmt = (n: number, digits = 2): string => n.toFixed(digits);
/** "2.31 (runs 2.20, 2.31, 2.40)": the median and every run's figure, in run order. */
export const spread = (values: readonly number[], digits = 2): string =>
  `${fmt(median(values), digits)} (runs ${values.map((v) => fmt(v, digits)).join(', ')})`;

/** `npm run build` before a benchmark of the built CLI, unless BENCH_SKIP_BUILD is set (dist/ as it is). */
export function buildUnlessSkipped(): void {
  if (process.env.BENCH_SKIP_BUILD) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('npm run build failed');
}
