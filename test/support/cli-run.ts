import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/server.js';

/** The repository's root: the CLI runs from source (tsx) there. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A node child with these arguments in the repository, with only the given environment; its exit code and output. */
export function runNode(
  nodeArgs: readonly string[],
  env: Record<string, string | undefined>,
): Promise<CliRun> {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
  });
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/**
 * `erp-bridge <args>` as users run it: a child process from source via tsx, with only the given
 * environment (no PARTNER_* leaking in from the developer's shell); its exit code and output.
 */
export function runCli(args: readonly string[], env: Record<string, string | undefined>): Promise<CliRun> {
  return runNode(['--import', 'tsx', 'src/cli/main.ts', ...args], env);
}

/**
 * Node arguments that make a child name on stderr each module specifier it resolves matching
 * `pattern` (test/support/module-watch.mjs), and what it named: which packages a command loaded.
 */
export const watchModules = (pattern: string) => ({
  args: ['--import', './test/support/module-watch.mjs'],
  env: { ERP_BRIDGE_WATCH_MODULES: pattern },
});
export const modulesNamed = (stderr: string): string[] =>
  [...stderr.matchAll(/^module loaded: (.+)$/gm)].map((m) => m[1] as string);

/**
 * A sandbox in this process for a test file's CLI children (its state readable by the test), a
 * work folder removed afterwards, and the PARTNER_* environment that points a child at the sandbox.
 */
export function cliSandboxPerFile(prefix: string) {
  const work = mkdtempSync(join(tmpdir(), `erp-bridge-${prefix}-`));
  let handle: SandboxHandle | undefined;
  beforeAll(async () => {
    handle = await startSandbox();
  });
  afterAll(async () => {
    await handle?.close();
    rmSync(work, { recursive: true, force: true });
  });
  const sandbox = (): SandboxHandle => {
    if (!handle) throw new Error('the sandbox starts in beforeAll');
    return handle;
  };
  return {
    work,
    sandbox,
    env: (overrides: Record<string, string> = {}) => ({
      PARTNER_API_URL: sandbox().url,
      PARTNER_AUTH_URL: sandbox().authUrl,
      PARTNER_CLIENT_ID: 'sandbox-client',
      PARTNER_CLIENT_SECRET: 'sandbox-secret',
      ...overrides,
    }),
  };
}
