import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAdminConfig } from '../../../src/ops/admin-config.js';
import { adminServers } from '../../support/admin-server.js';
import { testRedis } from '../../support/redis.js';

const redis = testRedis();
const admin = adminServers(redis);
afterAll(() => redis.cleanup());
const TOKEN = 'admin-token-0123456789abcdef';

/** A raw request with a Host header of our choice (what a rebound page's browser sends). */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The job of case 10: it named its own feed and file. */
const hostileJob = {
  name: 'import-file',
  data: { runId: 'evil', file: '/etc/passwd', feed: { name: 'evil', accountId: 1002 } },
  options: {},
};
const ADD = '/queues/api/queues/imports/add';

describe('issue 18 case 10: the admin port cannot be driven from a web page', () => {
  it('refuses a DNS-rebinding request (Host: evil.example) with 421 on every route and adds no job', async () => {
    const server = await admin.start();
    const evil = { host: 'evil.example' };
    expect((await send(server.url, 'POST', ADD, evil, hostileJob)).status).toBe(421);
    expect((await send(server.url, 'PUT', '/queues/api/queues/imports/pause', evil)).status).toBe(421);
    expect((await send(server.url, 'GET', '/queues/api/queues', evil)).status).toBe(421);
    expect(
      (await send(server.url, 'GET', '/metrics', { host: `evil.example:${new URL(server.url).port}` }))
        .status,
    ).toBe(421);
    expect(await admin.queues.imports.count()).toBe(0);
    expect(await admin.queues.imports.isPaused()).toBe(false);
    // Loopback names and addresses, with or without port, still answer.
    const port = new URL(server.url).port;
    for (const host of ['localhost', `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
      expect((await send(server.url, 'GET', '/healthz', { host })).status, host).toBe(200);
  });

  it('without credentials the dashboard is read-only: it shows the queues but refuses changes (403)', async () => {
    const server = await admin.start();
    const local = { host: `127.0.0.1:${new URL(server.url).port}` };
    expect((await send(server.url, 'GET', '/queues/api/queues', local)).status).toBe(200);
    const added = await send(server.url, 'POST', ADD, local, hostileJob);
    expect(added.status).toBe(403);
    expect(added.text).toContain('read-only');
    expect((await send(server.url, 'PUT', '/queues/api/queues/imports/pause', local)).status).toBe(403);
    expect((await send(server.url, 'PUT', '/queues/api/queues/imports/clean/completed', local)).status).toBe(
      403,
    );
    expect(await admin.queues.imports.count()).toBe(0);
    expect(await admin.queues.imports.isPaused()).toBe(false);
  });

  it('with credentials an operator may change jobs; ERP_BRIDGE_ADMIN_ALLOWED_HOSTS adds names', async () => {
    const config = loadAdminConfig(
      {
        ERP_BRIDGE_ADMIN_PORT: '0',
        ERP_BRIDGE_ADMIN_TOKEN: TOKEN,
        ERP_BRIDGE_ADMIN_ALLOWED_HOSTS: 'worker-1, Admin.Example',
      },
      'worker',
    );
    if (!config) throw new Error('expected a config');
    const server = await admin.start(config);
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await send(server.url, 'POST', ADD, { host: 'evil.example', ...auth }, hostileJob)).status).toBe(
      421,
    );
    const paused = await send(server.url, 'PUT', '/queues/api/queues/imports/pause', {
      host: 'localhost',
      ...auth,
    });
    expect(paused.status, paused.text).toBe(200);
    expect(await admin.queues.imports.isPaused()).toBe(true);
    await admin.queues.imports.resume();
    for (const host of ['worker-1:9464', 'admin.example'])
      expect((await send(server.url, 'GET', '/healthz', { host })).status, host).toBe(200);
    expect((await send(server.url, 'GET', '/healthz', { host: 'worker-2' })).status).toBe(421);
  });
});
