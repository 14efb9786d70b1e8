import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { childrenOf, descendantsOf, signal, waitUntilGone } from './process-tree.js';
import { freePort } from './redis-server.js';
import { waitForAnswer } from './tcp-probe.js';

const run = promisify(execFile);
const HOST = '127.0.0.1';
/** sshd re-executes itself, so it must be started by its absolute path. */
const SSHD = '/usr/sbin/sshd';

/** Debian's OpenSSH server, running for one test file on a loopback port. */
export interface SshdServer {
  host: string;
  port: number;
  user: string;
  /** The host key's fingerprint as `ssh-keygen -lf` prints it (`SHA256:...`). */
  hostKey: string;
  /** The user's private key (OpenSSH format, no passphrase) that the server accepts. */
  privateKey: string;
  /** A folder of the test's own on the server (the server sees the local file system). */
  root: string;
  /**
   * Kills the sessions' processes (the listener stays): every open connection breaks at once, as
   * with a reset, and new connections are accepted. Resolves with how many it broke.
   */
  dropConnections(): Promise<number>;
  /**
   * Aborts every TCP connection to the server in the kernel (`ss -K`, iproute2): the client sees
   * ECONNABORTED or ECONNRESET mid-stream, as with a network failure; sshd's sessions end cleanly.
   * Resolves with how many connections it aborted.
   */
  resetConnections(): Promise<number>;
  /** How many connections the server holds now (its direct children: one per connection). */
  connections(): Promise<number>;
  /**
   * Stops (SIGSTOP) the sessions' processes: open connections stay up but answer nothing, like a
   * hung host; new connections are served. stop() kills them.
   */
  freezeConnections(): Promise<number>;
  /** The tail of sshd's log (-e: to stderr). */
  log(): string;
  stop(): Promise<void>;
}

export interface SshdOptions {
  /**
   * Also offer password authentication. It checks the system's password database, which a test
   * must not change, so no password succeeds: for tests that a password is sent and refused.
   */
  passwords?: boolean;
}

/** Why SFTP tests cannot run here, or undefined when they can. */
export function sshdMissing(): string | undefined {
  try {
    accessSync(SSHD, constants.X_OK);
  } catch {
    return `${SSHD} is missing: apt-get install openssh-server (.ci/run does)`;
  }
  return undefined;
}

/**
 * Starts `sshd -D -e` on a free loopback port with a generated ed25519 host key and user key in a
 * temp dir, for the current user, SFTP through `internal-sftp`. Keys log in; passwords (on request)
 * are only ever refused, since sshd checks them against the system's password database.
 */
export async function startSshdServer(options: SshdOptions = {}): Promise<SshdServer> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'erp-bridge-sshd-'));
  const root = join(dir, 'files');
  await mkdir(root);
  const user = userInfo().username;
  await keygen(join(dir, 'host_key'));
  await keygen(join(dir, 'user_key'));
  await writeFile(join(dir, 'authorized_keys'), await readFile(join(dir, 'user_key.pub')));
  const config = join(dir, 'sshd_config');
  await writeFile(config, sshdConfig(dir, port, user, options.passwords ?? false));
  ensurePrivsepDir();

  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`sshd exited (${code}): ${stderr}`))),
  );
  exited.catch(() => {});
  const listener = child.pid ?? -1;
  // A crashed test run leaves no server behind (zombies at worst: only synchronous work here).
  const killNow = () => {
    for (const pid of descendantsOf(listener).reverse()) signal(pid, 'SIGKILL');
    child.kill('SIGKILL');
  };
  process.once('exit', killNow);
  await Promise.race([
    waitForAnswer(HOST, port, {
      accept: (data) => data.toString().startsWith('SSH-'),
      failure: `sshd on port ${port} sent no banner`,
    }),
    exited,
  ]);

  const { stdout } = await run('ssh-keygen', ['-lf', join(dir, 'host_key.pub')]);
  const hostKey = stdout.split(' ')[1] ?? '';
  /**
   * Breaks every connection: first the processes that speak SFTP (their session process reaps
   * them), then the session processes, whose sockets close (the listener reaps them); in that
   * order no process is left a zombie. Frozen processes are woken to be reaped.
   */
  const drop = async (): Promise<number> => {
    const sessions = childrenOf(listener);
    const below = descendantsOf(listener).filter((pid) => !sessions.includes(pid));
    for (const pid of below) signal(pid, 'SIGKILL');
    for (const pid of sessions) signal(pid, 'SIGCONT');
    await waitUntilGone(below);
    for (const pid of sessions) signal(pid, 'SIGKILL');
    await waitUntilGone(sessions);
    return sessions.length;
  };

  return {
    host: HOST,
    port,
    user,
    hostKey,
    privateKey: await readFile(join(dir, 'user_key'), 'utf8'),
    root,
    dropConnections: drop,
    resetConnections: async () => {
      const filter = ['(', 'sport', '=', `:${port}`, 'or', 'dport', '=', `:${port}`, ')'];
      const { stdout } = await run('ss', ['-K', '-t', '-n', 'state', 'established', ...filter]);
      // One line per socket aborted, after a header; a connection's second end may already be
      // gone (reset by the first), so connections are counted by their pair of addresses.
      const pairs = stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/).slice(-2).sort().join(' '));
      return new Set(pairs).size;
    },
    connections: async () => childrenOf(listener).length,
    freezeConnections: async () => {
      const pids = descendantsOf(listener);
      for (const pid of pids) signal(pid, 'SIGSTOP');
      return childrenOf(listener).length;
    },
    log: () => stderr,
    stop: async () => {
      process.off('exit', killNow);
      await drop();
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function keygen(file: string): Promise<unknown> {
  return run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'erp-bridge-test', '-f', file]);
}

function sshdConfig(dir: string, port: number, user: string, passwords: boolean): string {
  return [
    `Port ${port}`,
    `ListenAddress ${HOST}`,
    `HostKey ${join(dir, 'host_key')}`,
    'PidFile none',
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    `AllowUsers ${user}`,
    // Tests run as root here.
    `PermitRootLogin ${passwords ? 'yes' : 'prohibit-password'}`,
    'PubkeyAuthentication yes',
    `PasswordAuthentication ${passwords ? 'yes' : 'no'}`,
    'PermitEmptyPasswords no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    // The temp dir's owner and modes are not the user's home's.
    'StrictModes no',
    'Subsystem sftp internal-sftp',
    'LogLevel VERBOSE',
    '',
  ].join('\n');
}

/**
 * sshd refuses to start as root without its privilege-separation directory, which the Debian
 * service creates at boot (RuntimeDirectory=sshd); a container without systemd has none.
 */
function ensurePrivsepDir(): void {
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
}
