import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRedisServer, type RedisServer, spawnRedisServer } from '../../support/redis-server.js';
import { CliProcess, SLOW_MACHINE_TIMEOUT_MS } from '../../support/worker-process.js';

const bin = findRedisServer();
const GRACE_S = 2;
/** The promise: a SIGTERM ends the process within the grace period plus a few seconds. */
const BOUND_MS = (GRACE_S + 5) * 1000;

const live: CliProcess[] = [];
const servers: RedisServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(live.splice(0).map((p) => p.stop('SIGKILL')));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A fleet process on a Redis of the test's own (so the test can take it away). */
async function fleetProcess(args: string[]) {
  const server = await spawnRedisServer(bin as string);
  servers.push(server);
  const proc = new CliProcess(args, {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    REDIS_URL: server.url,
    ERP_BRIDGE_QUEUE_PREFIX: 'shutdown',
    ERP_BRIDGE_SHUTDOWN_GRACE_S: String(GRACE_S),
    ERP_BRIDGE_ADMIN_PORT: '0',
    // Valid in form; never called: the worker has no job to do.
    PARTNER_API_URL: 'http://127.0.0.1:9/v2',
    PARTNER_AUTH_URL: 'http://127.0.0.1:9/token',
    PARTNER_CLIENT_ID: 'id',
    PARTNER_CLIENT_SECRET: 'secret',
  });
  live.push(proc);
  return { server, proc };
}

/** Sends SIGTERM once Redis is gone and the process noticed; the exit and how long it took. */
async function terminateWithRedisDown(proc: CliProcess, server: RedisServer) {
  await server.stop();
  await proc.nextLog((e) => /Redis connection error/.test(String(e.msg)), 10_000);
  const sentAt = Date.now();
  proc.child.kill('SIGTERM');
  const exit = await Promise.race([
    proc.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), BOUND_MS + 10_000)),
  ]);
  return { exit, tookMs: Date.now() - sentAt };
}

describe.skipIf(!bin)(
  'issue 18 case 9: SIGTERM ends a fleet process, Redis up or down',
  { timeout: SLOW_MACHINE_TIMEOUT_MS },
  () => {
    it('case 9: a worker whose Redis is down when SIGTERM arrives exits within grace + 5 s', async () => {
      const { server, proc } = await fleetProcess(['worker', '--log-format', 'json', '--log-level', 'info']);
      await proc.log((e) => e.msg === 'worker started', 60_000);
      const { exit, tookMs } = await terminateWithRedisDown(proc, server);
      expect(exit, proc.describe()).toEqual({ code: 0, signal: null });
      expect(tookMs, proc.describe()).toBeLessThan(BOUND_MS);
      // It had to force (Redis never answered the close), and said so.
      expect(
        proc.entries.some((e) => /^grace period over/.test(String(e.msg))),
        proc.describe(),
      ).toBe(true);
    });

    it('case 9: the scheduler whose Redis is down when SIGTERM arrives exits within grace + 5 s', async () => {
      const feeds = await mkdtemp(join(tmpdir(), 'erp-bridge-feeds-'));
      dirs.push(feeds);
      const { server, proc } = await fleetProcess(['scheduler', '--feeds', feeds]);
      await proc.log((e) => e.msg === 'schedulers in sync with the feed files', 60_000);
      const { exit, tookMs } = await terminateWithRedisDown(proc, server);
      expect(exit, proc.describe()).toEqual({ code: 0, signal: null });
      expect(tookMs, proc.describe()).toBeLessThan(BOUND_MS);
    });

    it('a worker with Redis up still stops cleanly, without forcing', async () => {
      const { proc } = await fleetProcess(['worker', '--log-format', 'json', '--log-level', 'info']);
      await proc.log((e) => e.msg === 'worker started', 60_000);
      const sentAt = Date.now();
      expect(await proc.stop('SIGTERM', BOUND_MS + 10_000), proc.describe()).toEqual({
        code: 0,
        signal: null,
      });
      expect(Date.now() - sentAt).toBeLessThan(BOUND_MS);
      expect(
        proc.entries.some((e) => /^grace period over/.test(String(e.msg))),
        proc.describe(),
      ).toBe(false);
      expect(proc.logged('worker stopped')).toHaveLength(1);
    });
  },
);
