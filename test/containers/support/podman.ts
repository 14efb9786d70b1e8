import { execFile } from 'node:child_process';

/**
 * The podman CLI, as the container tests drive it: every call is one `podman` process with an
 * argument list (no shell), its output collected. podman in the container lab has no systemd, so
 * it prints "unable to get systemd connection" errors about health-check timers on many calls;
 * they are dropped from what a failure reports (the check itself is run by `podman healthcheck run`).
 */
export interface PodmanResult {
  code: number;
  stdout: string;
  stderr: string;
}

const SYSTEMD_NOISE = /^time=.*systemd connection.*$\n?/gm;

/** Runs `podman ...args`; never throws for a non-zero exit (see `podmanOk`). */
export function podman(args: readonly string[], env?: Record<string, string>): Promise<PodmanResult> {
  return new Promise((resolve) => {
    execFile(
      'podman',
      args,
      { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', ...(env ? { env: { ...process.env, ...env } } : {}) },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 127;
        resolve({ code, stdout, stderr: stderr.replace(SYSTEMD_NOISE, '') });
      },
    );
  });
}

/** Runs `podman ...args` and returns its stdout; a non-zero exit throws with the command and stderr. */
export async function podmanOk(args: readonly string[], env?: Record<string, string>): Promise<string> {
  const result = await podman(args, env);
  if (result.code !== 0)
    throw new Error(`podman ${args.join(' ')} exited ${result.code}: ${result.stderr.trim().slice(-2_000)}`);
  return result.stdout;
}

/**
 * Polls `probe` until it returns a value (not undefined), at most `timeoutMs`; no fixed sleeps in
 * the assertions, only a bounded wait between probes. The error names what was awaited and the
 * last thing the probe saw.
 */
export async function pollUntil<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  describe: () => string = () => '',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}. ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
