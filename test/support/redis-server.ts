import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { waitForAnswer } from './tcp-probe.js';

/** Where a test Redis came from, in the order they are tried. */
export type RedisSource = 'REDIS_URL' | 'redis-server' | 'testcontainers';

export interface RedisServer {
  url: string;
  source: RedisSource;
  /** Stops the server and starts it again on the same port; with `persistent`, its data survives. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Append-only file with fsync on every write (in a temp dir), so a restart loses nothing. */
  persistent?: boolean;
}

const HOST = '127.0.0.1';

/** The redis-server binary: REDIS_SERVER_BIN (set it to "none" to skip), else PATH, else /usr/bin. */
export function findRedisServer(): string | undefined {
  const override = process.env.REDIS_SERVER_BIN;
  if (override) return override === 'none' ? undefined : override;
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/bin'];
  return dirs.map((dir) => join(dir, 'redis-server')).find(isExecutable);
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A loopback port nothing listens on once it returns (bound, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Sends PING until +PONG comes back. */
function waitForPing(host: string, port: number): Promise<void> {
  return waitForAnswer(host, port, {
    send: 'PING\r\n',
    accept: (data) => data.toString().startsWith('+PONG'),
    failure: `redis on port ${port} did not answer PING`,
  });
}

function serverArgs(bind: string, port: number, dir: string, persistent: boolean): string[] {
  const persistence = persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  return ['--port', String(port), '--bind', bind, '--save', '', '--dir', dir, ...persistence];
}

/** Spawns a redis-server on a free loopback port and waits until it answers PING. */
export async function spawnRedisServer(
  bin: string,
  options: ServerOptions = {},
): Promise<SpawnedRedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'erp-bridge-redis-'));
  const args = serverArgs(HOST, port, dir, options.persistent ?? false);
  let child: ChildProcess | undefined;

  const start = async () => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    const exited = new Promise<never>((_, reject) =>
      proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${stderr}`))),
    );
    exited.catch(() => {});
    await Promise.race([waitForPing(HOST, port), exited]);
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGCONT'); // a paused server handles no SIGTERM
    proc.kill('SIGTERM');
    await exited;
  };
  const killNow = () => child?.kill('SIGKILL');
  process.once('exit', killNow); // a crashed test run leaves no server behind

  await start();
  return {
    url: `redis://${HOST}:${port}`,
    source: 'redis-server',
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    restart: async () => {
      await stop();
      await start();
    },
    stop: async () => {
      process.off('exit', killNow);
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A redis-server of the test's own, which can also be frozen. */
export interface SpawnedRedisServer extends RedisServer {
  /**
   * SIGSTOP: the server keeps its connections open but answers nothing, so commands hang instead
   * of failing fast (a hung host or a network partition, unlike a stopped server's refusals).
   */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

/** Starts redis:7-alpine with testcontainers (needs a Docker daemon). */
export async function startRedisContainer(options: ServerOptions = {}): Promise<RedisServer> {
  const { GenericContainer, Wait } = await import('testcontainers');
  // A fixed host port keeps the URL valid across restart(); the image's /data survives a restart.
  const port = await freePort();
  const container = await new GenericContainer('redis:7-alpine')
    .withCommand(['redis-server', ...serverArgs('0.0.0.0', 6379, '/data', options.persistent ?? false)])
    .withExposedPorts({ container: 6379, host: port })
    .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
    .start();
  const host = container.getHost();
  return {
    url: `redis://${host}:${port}`,
    source: 'testcontainers',
    restart: async () => {
      await container.restart();
      await waitForPing(host, port);
    },
    stop: async () => {
      await container.stop();
    },
  };
}

/** A spawned redis-server when the binary exists, else a container. */
export function startRedisServer(options: ServerOptions = {}): Promise<RedisServer> {
  const bin = findRedisServer();
  return bin ? spawnRedisServer(bin, options) : startRedisContainer(options);
}
