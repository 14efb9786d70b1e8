import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRedisServer, type RedisServer, spawnRedisServer } from '../../support/redis-server.js';
import { CliProcess, SLOW_MACHINE_TIMEOUT_MS } from '../../support/worker-process.js';

const bin = findRedisServer();
const GRACE_S = 2;
/**
 * The promise: a SIGTERM ends the process within the grace period plus a few seconds. Against a
 * Redis that never answers the process uses all of them (docs/fleet-security.md): 3 s to close
 * (CLOSE_SLACK_MS), then 2 s for whatever the forced close left open; plus 1 s for a loaded machine.
 */
const BOUND_MS = (GRACE_S + 3 + 2 + 1) * 1000;

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

/** Sends SIGTERM; the exit (or 'still running' well past the bound) and how long it took. */
async function terminate(proc: CliProcess) {
  const sentAt = Date.now();
  proc.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    proc.exited,
    new Promise<'still running'>((resolve) => {
      timer = setTimeout(() => resolve('still running'), BOUND_MS + 10_000);
    }),
  ]);
  clearTimeout(timer);
  return { exit, tookMs: Date.now() - sentAt };
}

/** Sends SIGTERM once Redis is gone and the process noticed; the exit and how long it took. */
async function terminateWithRedisDown(proc: CliProcess, server: RedisServer) {
  await server.stop();
  await proc.nextLog((e) => /Redis connection error/.test(String(e.msg)));
  return terminate(proc);
}

/** Exit 0 (not killed) within the bound. */
function expectExitedInBound(proc: CliProcess, { exit, tookMs }: Awaited<ReturnType<typeof terminate>>) {
  expect(exit, proc.describe()).toEqual({ code: 0, signal: null });
  expect(tookMs, proc.describe()).toBeLessThan(BOUND_MS);
}

/** It had to force the close (Redis never answered), and said so. */
const forced = (proc: CliProcess) => proc.entries.some((e) => /^grace period over/.test(String(e.msg)));

/** The forced close really dropped the connections: nothing was left for the last-resort exit. */
const leftConnectionsOpen = (proc: CliProcess) =>
  proc.entries.some((e) => /^grace period over: connections still open/.test(String(e.msg)));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A folder of `count` scheduled feed files (each pass upserts one Job Scheduler per file). */
async function scheduledFeeds(count: number): Promise<string> {
  const feeds = await mkdtemp(join(tmpdir(), 'erp-bridge-feeds-'));
  dirs.push(feeds);
  for (let i = 0; i < count; i += 1)
    await writeFile(
      join(feeds, `feed-${i}.yaml`),
      [
        `name: shutdown-${i}`,
        'accountId: 1001',
        'kind: transactions',
        'source: { path: "exports/*.csv", format: csv }',
        'mapping: { externalId: id, bookingDate: date, amount: amount, purpose: purpose }',
        'bankAccount: { externalId: main, accountName: Main, bankName: Bank, accountCurrency: EUR, accountType: CHECKING }',
        'schedule: "0 2 * * *"',
        '',
      ].join('\n'),
    );
  return feeds;
}

describe.skipIf(!bin)(
  'issue 18 case 9: SIGTERM ends a fleet process, Redis up or down',
  { timeout: SLOW_MACHINE_TIMEOUT_MS },
  () => {
    it('case 9: a worker whose Redis is down when SIGTERM arrives exits within grace + a few seconds', async () => {
      const { server, proc } = await fleetProcess(['worker', '--log-format', 'json', '--log-level', 'info']);
      await proc.log((e) => e.msg === 'worker started');
      expectExitedInBound(proc, await terminateWithRedisDown(proc, server));
      expect(forced(proc), proc.describe()).toBe(true);
    });

    it('case 9: the scheduler whose Redis is down when SIGTERM arrives exits within grace + a few seconds', async () => {
      const feeds = await mkdtemp(join(tmpdir(), 'erp-bridge-feeds-'));
      dirs.push(feeds);
      const { server, proc } = await fleetProcess(['scheduler', '--feeds', feeds]);
      await proc.log((e) => e.msg === 'schedulers in sync with the feed files');
      expectExitedInBound(proc, await terminateWithRedisDown(proc, server));
    });

    it('case 9: a worker whose Redis hangs (SIGSTOP: connected, never answering) exits within grace + a few seconds', async () => {
      const { server, proc } = await fleetProcess(['worker', '--log-format', 'json', '--log-level', 'info']);
      await proc.log((e) => e.msg === 'worker started');
      // Its connections are all up (the blocking fetch of each queue opens once it started).
      await sleep(1_000);
      server.pause();
      await sleep(1_000); // the worker's blocking fetch and lock renewals now wait on a silent socket
      expectExitedInBound(proc, await terminate(proc));
      expect(forced(proc), proc.describe()).toBe(true);
      expect(leftConnectionsOpen(proc), proc.describe()).toBe(false);
    });

    it('case 9: the scheduler whose Redis hangs (SIGSTOP) during a rescan exits within grace + a few seconds', async () => {
      const feeds = await scheduledFeeds(3);
      const { server, proc } = await fleetProcess(['scheduler', '--feeds', feeds, '--rescan', '0.5']);
      // Two passes: the rescans are running.
      const synced = (e: Record<string, unknown>) => e.msg === 'schedulers in sync with the feed files';
      await proc.log(synced);
      await proc.nextLog(synced);
      server.pause();
      await sleep(1_500); // a rescan started since, and waits on Redis
      const passes = proc.logged('schedulers in sync with the feed files').length;
      expectExitedInBound(proc, await terminate(proc));
      // No pass finished while Redis was frozen (the one in flight was abandoned, not awaited).
      expect(proc.logged('schedulers in sync with the feed files').length, proc.describe()).toBe(passes);
      expect(leftConnectionsOpen(proc), proc.describe()).toBe(false);
    });

    it('case 9: the scheduler whose first pass is stuck on a Redis that went away exits within grace + a few seconds', async () => {
      // Enough feed files that the first pass is still reading them when Redis goes.
      const feeds = await scheduledFeeds(1_000);
      const { server, proc } = await fleetProcess(['scheduler', '--feeds', feeds]);
      // The admin server answers from here, then the first pass starts.
      await proc.log((e) => e.msg === 'admin server listening');
      await server.stop();
      await proc.nextLog((e) => /Redis connection error/.test(String(e.msg)));
      // The precondition: the first pass never got through.
      expect(proc.logged('schedulers in sync with the feed files'), proc.describe()).toHaveLength(0);
      expectExitedInBound(proc, await terminate(proc));
    });

    it('a worker with Redis up still stops cleanly, without forcing', async () => {
      const { proc } = await fleetProcess(['worker', '--log-format', 'json', '--log-level', 'info']);
      await proc.log((e) => e.msg === 'worker started');
      const sentAt = Date.now();
      expect(await proc.stop('SIGTERM', BOUND_MS + 10_000), proc.describe()).toEqual({
        code: 0,
        signal: null,
      });
      expect(Date.now() - sentAt).toBeLessThan(BOUND_MS);
      expect(forced(proc), proc.describe()).toBe(false);
      expect(proc.logged('worker stopped')).toHaveLength(1);
    });
  },
);
