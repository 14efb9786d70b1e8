import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSummary, RunTally } from '../../../src/sync/report/summary.js';
import { get } from '../../support/admin-server.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { parseExposition } from '../../support/prometheus.js';
import {
  CliProcess,
  cliProcesses,
  fleetProcessEnv,
  type LogEntry,
  SLOW_MACHINE_TIMEOUT_MS,
} from '../../support/worker-process.js';

const world = fleetTestWorld();
const cli = cliProcesses();
const listening = (e: LogEntry) => e.msg === 'admin server listening';

describe('erp-bridge worker and scheduler: the admin server', () => {
  it(
    'a worker with ERP_BRIDGE_ADMIN_PORT=0 logs its URL and serves /healthz, /readyz, /metrics and /console',
    async () => {
      const fleet = world.start();
      const env = fleetProcessEnv(fleet.config, world.sandbox(), { ERP_BRIDGE_ADMIN_PORT: '0' });
      const [worker] = await cli.workers(env, 1);
      if (!worker) throw new Error('no worker');
      const url = String((await worker.log(listening)).url);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await get({ url }, '/healthz')).toMatchObject({ status: 200 });
      const ready = await get({ url }, '/readyz');
      expect(JSON.parse(ready.text)).toEqual({ status: 'ready', checks: { redis: 'ok', token: 'ok' } });
      const metrics = parseExposition((await get({ url }, '/metrics')).text);
      expect(metrics.filter((s) => s.name === 'erp_bridge_queue_jobs').length).toBeGreaterThan(0);
      expect(metrics.some((s) => s.name === 'erp_bridge_process_cpu_seconds_total')).toBe(true);
      expect((await get({ url }, '/queues')).status).toBe(200);
      // The console, read from the fleet's Redis: a run the store holds is on it.
      const startedAt = Date.now();
      await fleet.store.create({
        runId: 'console-feed-20261128T010000Z-abcdef',
        feed: 'console-feed',
        kind: 'transactions',
        accountId: 4711,
        file: 'export.csv',
        sha256: 'a'.repeat(64),
        dryRun: false,
        startedAt: new Date(startedAt).toISOString(),
      });
      await fleet.store.finish(
        buildSummary({
          runId: 'console-feed-20261128T010000Z-abcdef',
          feed: { name: 'console-feed', kind: 'transactions', accountId: 4711 },
          dryRun: false,
          startedAt,
          finishedAt: startedAt + 1_000,
          files: [{ path: 'export.csv', sha256: 'a'.repeat(64), records: 0 }],
          tally: new RunTally(),
        }),
      );
      const page = await get({ url }, '/console');
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.text).toContain('/console/runs/console-feed-20261128T010000Z-abcdef');
      expect(await worker.stop('SIGTERM', 30_000)).toEqual({ code: 0, signal: null });
    },
    SLOW_MACHINE_TIMEOUT_MS,
  );

  it(
    'a worker refuses to listen on 0.0.0.0 without credentials: exit code 2, naming the variables',
    async () => {
      const fleet = world.start();
      const env = fleetProcessEnv(fleet.config, world.sandbox());
      const result = await cli.run(['worker', '--admin-host', '0.0.0.0'], env);
      expect(result.code, result.describe()).toBe(2);
      expect(result.stderr).toContain('ERP_BRIDGE_ADMIN_TOKEN');
      expect(result.stderr).toContain('ERP_BRIDGE_ADMIN_USER and ERP_BRIDGE_ADMIN_PASSWORD');
    },
    SLOW_MACHINE_TIMEOUT_MS,
  );

  it(
    'the scheduler is ready when Redis answers (it never calls the service)',
    async () => {
      const fleet = world.start();
      const env = fleetProcessEnv(fleet.config, world.sandbox(), { PARTNER_CLIENT_SECRET: 'not-the-secret' });
      const feeds = mkdtempSync(join(tmpdir(), 'erp-bridge-no-feeds-'));
      const scheduler = new CliProcess(['scheduler', '--feeds', feeds, '--admin-port', '0'], env);
      try {
        const url = String((await scheduler.log(listening)).url);
        const ready = await get({ url }, '/readyz');
        expect(JSON.parse(ready.text)).toEqual({ status: 'ready', checks: { redis: 'ok' } });
        expect((await get({ url }, '/console')).status).toBe(200);
        expect(await scheduler.stop('SIGTERM', 30_000)).toEqual({ code: 0, signal: null });
      } finally {
        await scheduler.stop('SIGKILL');
      }
    },
    SLOW_MACHINE_TIMEOUT_MS,
  );
});
