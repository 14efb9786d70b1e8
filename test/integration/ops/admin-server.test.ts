import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartnerClient } from '../../../src/client/index.js';
import { ConfigError } from '../../../src/config/errors.js';
import { loadAdminConfig } from '../../../src/ops/admin-config.js';
import { fleetReadings } from '../../../src/ops/fleet-readings.js';
import { createMetrics, type FleetReadings } from '../../../src/ops/metrics.js';
import { redisReachable, tokenObtainable } from '../../../src/ops/readiness.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import { adminServers, get, unreachableRedis } from '../../support/admin-server.js';
import { captureLogs } from '../../support/log-capture.js';
import { parseExposition } from '../../support/prometheus.js';
import { testRedis } from '../../support/redis.js';
import { freePort } from '../../support/redis-server.js';

const redis = testRedis();
const admin = adminServers(redis);
const TOKEN = 'admin-token-0123456789abcdef';
const PASSWORD = 'an-admin-password';
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let sandbox: SandboxHandle;
const clients: PartnerClient[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
  await redis.cleanup();
});

function sandboxClient(clientSecret = sandbox.clientSecret): PartnerClient {
  const client = new PartnerClient({
    baseUrl: sandbox.url,
    authUrl: sandbox.authUrl,
    clientId: sandbox.clientId,
    clientSecret,
  });
  clients.push(client);
  return client;
}

describe('/healthz and /readyz', () => {
  it('are 200 while the process runs and its Redis and token work, 503 once shutdown starts', async () => {
    const server = await admin.start(
      {},
      { readiness: { redis: redisReachable(admin.connection), token: tokenObtainable(sandboxClient()) } },
    );
    expect(await get(server, '/healthz')).toMatchObject({ status: 200, text: '{"status":"ok"}' });
    const ready = await get(server, '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', checks: { redis: 'ok', token: 'ok' } });
    server.shuttingDown();
    expect(await get(server, '/healthz')).toMatchObject({ status: 503 });
    expect(JSON.parse((await get(server, '/readyz')).text)).toEqual({ status: 'shutting down' });
  });

  it('/readyz is 503 naming Redis when it does not answer', async () => {
    const dead = unreachableRedis(await freePort());
    try {
      const server = await admin.start(
        {},
        {
          readiness: { redis: redisReachable(dead), token: tokenObtainable(sandboxClient()) },
          readinessTimeoutMs: 500,
        },
      );
      const ready = await get(server, '/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.text)).toEqual({
        status: 'not ready',
        checks: { redis: 'redis: no answer within 500 ms', token: 'ok' },
      });
      expect((await get(server, '/healthz')).status).toBe(200);
    } finally {
      dead.disconnect();
    }
  });

  it('/readyz is 503 naming the token when the credentials are refused, without the secret', async () => {
    const wrongSecret = 'wrong-secret-value-42';
    const server = await admin.start(
      {},
      {
        readiness: {
          redis: redisReachable(admin.connection),
          token: tokenObtainable(sandboxClient(wrongSecret)),
        },
      },
    );
    const ready = await get(server, '/readyz');
    expect(ready.status).toBe(503);
    const body = JSON.parse(ready.text) as { checks: Record<string, string> };
    expect(body.checks.redis).toBe('ok');
    expect(body.checks.token).toMatch(
      /refused the client credentials.*check PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET/,
    );
    expect(ready.text).not.toContain(wrongSecret);
  });
});

describe('/metrics', () => {
  it('serves the text exposition without credentials, even when the dashboard has some', async () => {
    const metrics = createMetrics({ processMetrics: false });
    metrics.records.inc({ outcome: 'created', kind: 'plans', tenant: '1001' }, 7);
    const server = await admin.start({ credentials: { token: TOKEN } }, { metrics });
    const res = await get(server, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(parseExposition(res.text)).toContainEqual({
      name: 'erp_bridge_records_total',
      labels: { outcome: 'created', kind: 'plans', tenant: '1001' },
      value: 7,
    });
    expect(res.text).toContain('# TYPE erp_bridge_chunk_duration_seconds histogram');
  });

  it('still answers when Redis is gone: the fleet gauges are left empty and the failure reported', async () => {
    const dead = unreachableRedis(await freePort());
    try {
      const failed: (keyof FleetReadings)[] = [];
      const metrics = createMetrics({
        processMetrics: false,
        fleet: fleetReadings({ queues: admin.queues, redis: dead, prefix: admin.prefix }, 300),
        onScrapeError: (_error, reading) => failed.push(reading),
      });
      // The queue depth is read through the admin connection (alive); the slots and the feeds'
      // health are read from `dead`.
      const server = await admin.start({}, { metrics });
      const res = await get(server, '/metrics');
      expect(res.status).toBe(200);
      const names = new Set(parseExposition(res.text).map((s) => s.name));
      expect(names.has('erp_bridge_queue_jobs')).toBe(true);
      expect(names.has('erp_bridge_tenant_slots_busy')).toBe(false);
      expect(names.has('erp_bridge_feed_failing')).toBe(false);
      expect(failed.sort()).toEqual(['feedFailing', 'tenantSlots']);
    } finally {
      dead.disconnect();
    }
  });
});

describe('/queues: the BullMQ dashboard', () => {
  it('is open on loopback when no credentials are configured', async () => {
    const server = await admin.start();
    const page = await get(server, '/queues');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const api = await get(server, '/queues/api/queues');
    expect(api.status).toBe(200);
    const queues = (JSON.parse(api.text) as { queues: { name: string }[] }).queues.map((q) => q.name);
    expect(queues.sort()).toEqual(['chunks', 'imports', 'reconciles', 'ticks']);
  });

  it('with credentials: 401 (and a basic-auth challenge) without or with wrong ones, 200 with right ones', async () => {
    const server = await admin.start({
      credentials: { token: TOKEN, basic: { user: 'ops', password: PASSWORD } },
    });
    for (const headers of [
      {},
      bearer('wrong-token-0123456789'),
      basic('ops', 'wrong'),
      basic('nobody', PASSWORD),
    ]) {
      for (const path of ['/queues', '/queues/api/queues', '/queues/static/favicon-32x32.png']) {
        const res = await get(server, path, headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="erp-bridge admin"/);
      }
    }
    for (const headers of [bearer(TOKEN), basic('ops', PASSWORD), basic('any-user', TOKEN)]) {
      expect((await get(server, '/queues', headers)).status).toBe(200);
      expect((await get(server, '/queues/api/queues', headers)).status).toBe(200);
    }
    expect((await get(server, '/healthz')).status).toBe(200);
  });
});

describe('listening beyond loopback', () => {
  it('refuses 0.0.0.0 without credentials and starts with them, the dashboard then guarded', async () => {
    const env = { ERP_BRIDGE_ADMIN_HOST: '0.0.0.0', ERP_BRIDGE_ADMIN_PORT: '0' };
    expect(() => loadAdminConfig(env, 'worker')).toThrow(ConfigError);
    const config = loadAdminConfig({ ...env, ERP_BRIDGE_ADMIN_TOKEN: TOKEN }, 'worker');
    if (!config) throw new Error('expected a config');
    const logs = captureLogs();
    const server = await admin.start(config, { logger: logs.logger });
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    const local = { url: server.url.replace('0.0.0.0', '127.0.0.1') };
    expect((await get(local, '/queues')).status).toBe(401);
    expect((await get(local, '/queues', bearer(TOKEN))).status).toBe(200);
    const listening = logs.entries().filter((e) => e.msg === 'admin server listening');
    expect(listening).toEqual([
      expect.objectContaining({ url: server.url, dashboard: `${server.url}/queues`, dashboardAuth: 'token' }),
    ]);
    expect(logs.lines.join('\n')).not.toContain(TOKEN);
  });

  it('a port in use is a configuration error naming the variable', async () => {
    const first = await admin.start();
    const port = Number(new URL(first.url).port);
    await expect(admin.start({ port })).rejects.toThrow(
      expect.objectContaining({
        name: 'ConfigError',
        message: expect.stringContaining('ERP_BRIDGE_ADMIN_PORT'),
      }),
    );
  });
});
