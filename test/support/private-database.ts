import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { TestDialect } from './databases.js';
import { freePort, isExecutable } from './redis-server.js';

/**
 * A database server of the test's own (issue 29 point 6: the server stopping mid-read), on a free
 * loopback port with its data in a temp folder: the machine's shared servers must keep running for
 * the other tests. PostgreSQL: initdb (trust, user postgres) and the postgres binary; MariaDB:
 * mariadb-install-db (root with no password over 127.0.0.1) and mariadbd. Stopping is the
 * server's own shutdown: PostgreSQL's fast shutdown (SIGINT, what `pg_ctl -m fast stop` sends)
 * ends every session; MariaDB's (SIGTERM, what `mariadb-admin shutdown` does) kills them.
 */
export interface PrivateServer {
  readonly dialect: TestDialect;
  /** The administrator's URL (no database), for createTestDatabase. */
  readonly url: string;
  /** Shuts the server down and waits until its process has ended; its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, once it accepts connections. */
  start(): Promise<void>;
  /** Kills it (if running) and removes its folder; safe to call twice. */
  destroy(): Promise<void>;
}

/** A started server, or why none could be (binaries missing, a start that failed). */
export type PrivateStart =
  | { server: PrivateServer; missing?: undefined }
  | { server?: undefined; missing: string };

const HOST = '127.0.0.1';
const READY_MS = 60_000;

interface Recipe {
  /** Creates the data folder under `dir` (as `user` when running as root). */
  init: string[];
  /** The server's command line. */
  serve: (port: number) => string[];
  /** The stderr line that says it accepts connections. */
  ready: RegExp;
  /** The signal of its own shutdown that ends the sessions. */
  stop: NodeJS.Signals;
  url: (port: number) => string;
  /** The OS user to run as when the tests run as root (PostgreSQL refuses root). */
  user?: { uid: number; gid: number };
}

export async function startPrivateServer(dialect: TestDialect): Promise<PrivateStart> {
  const dir = mkdtempSync(join(tmpdir(), `erp-bridge-private-${dialect}-`));
  let recipe: Recipe | string;
  try {
    recipe = dialect === 'postgres' ? postgresRecipe(dir) : mariadbRecipe(dir);
  } catch (error) {
    recipe = (error as Error).message;
  }
  if (typeof recipe === 'string') {
    rmSync(dir, { recursive: true, force: true });
    return { missing: recipe };
  }
  const server = privateServer(dialect, dir, recipe, await freePort());
  try {
    await server.init();
    await server.start();
    return { server };
  } catch (error) {
    await server.destroy();
    return { missing: `a private ${dialect} server did not start: ${(error as Error).message}` };
  }
}

function privateServer(dialect: TestDialect, dir: string, recipe: Recipe, port: number) {
  let child: ChildProcess | undefined;
  const ids = recipe.user ?? {};
  // A test process that dies leaves no server behind (afterAll is the normal way out).
  const killNow = () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killNow);

  // `child` stays set until the process has exited: a shutdown that hangs is killed by destroy().
  const stop = async () => {
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill(recipe.stop);
      await exited;
    }
    child = undefined;
  };
  return {
    dialect,
    url: recipe.url(port),
    init: async () => {
      const [bin, ...args] = recipe.init;
      await finished(
        spawn(bin as string, args, { ...ids, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }),
        bin as string,
      );
    },
    start: async () => {
      if (child) throw new Error(`the private ${dialect} server runs already`);
      const [bin, ...args] = recipe.serve(port);
      const proc = spawn(bin as string, args, { ...ids, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
      child = proc;
      await ready(proc, bin as string, recipe.ready);
    },
    stop,
    destroy: async () => {
      process.off('exit', killNow);
      const proc = child;
      child = undefined;
      if (proc && proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise((resolve) => proc.once('exit', resolve));
        proc.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the process has exited 0; rejects with its last output otherwise. */
function finished(proc: ChildProcess, name: string): Promise<void> {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${name} exited (${code ?? signal}): ${output.trim()}`)),
    );
  });
}

/** Resolves once the server's stderr says it accepts connections; rejects when it exits first. */
function ready(proc: ChildProcess, name: string, line: RegExp): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${name} not ready after ${READY_MS} ms: ${output.trim()}`));
    }, READY_MS);
    proc.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4_000);
      if (line.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}): ${output.trim()}`));
    });
  });
}

const root = () => process.getuid?.() === 0;

function mariadbRecipe(dir: string): Recipe | string {
  const install = findBin('mariadb-install-db');
  const server = findBin('mariadbd');
  if (!install || !server)
    return 'no mariadb-install-db or mariadbd (the MariaDB server package) on PATH or in /usr/sbin';
  const data = join(dir, 'data');
  // As root, mariadbd must be told to run as root; as anyone else it runs as that user.
  const asRoot = root() ? ['--user=root'] : [];
  return {
    init: [
      install,
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...asRoot,
    ],
    serve: (port) => [
      server,
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      `--bind-address=${HOST}`,
      `--socket=${join(dir, 'mysql.sock')}`,
      `--pid-file=${join(dir, 'mysql.pid')}`,
      '--innodb-buffer-pool-size=16M',
      '--skip-log-bin',
      ...asRoot,
    ],
    ready: /ready for connections/,
    stop: 'SIGTERM',
    url: (port) => `mysql://root@${HOST}:${port}/`,
  };
}

function postgresRecipe(dir: string): Recipe | string {
  const bin = postgresBin();
  if (!bin) return 'no PostgreSQL server binaries (initdb, postgres) in PG_BIN or /usr/lib/postgresql/*/bin';
  let user: Recipe['user'];
  if (root()) {
    // initdb and postgres refuse to run as root: they run as the postgres OS user, owning the folder.
    user = osUser('postgres');
    if (!user) return 'running as root and there is no postgres OS user to run initdb and postgres as';
    chownSync(dir, user.uid, user.gid);
  }
  const data = join(dir, 'data');
  return {
    init: [join(bin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'],
    serve: (port) => [
      join(bin, 'postgres'),
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      `listen_addresses=${HOST}`,
      '-c',
      'fsync=off',
      '-c',
      'shared_buffers=16MB',
    ],
    ready: /database system is ready to accept connections/,
    stop: 'SIGINT',
    url: (port) => `postgres://postgres@${HOST}:${port}/postgres`,
    ...(user ? { user } : {}),
  };
}

/** PG_BIN, else the newest /usr/lib/postgresql/<version>/bin that has initdb and postgres. */
function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  let versions: string[];
  try {
    versions = readdirSync('/usr/lib/postgresql');
  } catch {
    return undefined;
  }
  return versions
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join('/usr/lib/postgresql', version, 'bin'))
    .find((bin) => isExecutable(join(bin, 'initdb')) && isExecutable(join(bin, 'postgres')));
}

function findBin(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin', '/usr/bin'];
  return dirs.map((dir) => join(dir, name)).find(isExecutable);
}

/** An OS user's ids from /etc/passwd. */
function osUser(name: string): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
}
