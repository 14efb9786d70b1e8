import type { Redis } from 'ioredis';
import { afterAll, afterEach } from 'vitest';
import { dashboardQueues } from '../../src/fleet/dashboard.js';
import { type FleetQueues, openQueues } from '../../src/fleet/queues.js';
import { connectRedis } from '../../src/fleet/redis.js';
import { createLogger } from '../../src/logging/logger.js';
import type { AdminConfig } from '../../src/ops/admin-config.js';
import { type AdminServer, type AdminServerDeps, startAdminServer } from '../../src/ops/admin-server.js';
import { createMetrics } from '../../src/ops/metrics.js';
import type { TestRedis } from './redis.js';

/**
 * A fleet connection to a Redis that is not there (a closed port): like the fleet's own, its
 * commands wait for a reconnect instead of failing, which is what the admin server must survive.
 */
export function unreachableRedis(port: number): Redis {
  const redis = connectRedis(`redis://127.0.0.1:${port}`, 'test-unreachable');
  redis.on('error', () => {}); // reconnect attempts fail, as intended
  return redis;
}

/**
 * Admin servers for one test file over the fleet queues of `redis` (a fresh prefix), closed after
 * each test. `start` takes the config and any dependency to replace.
 */
export function adminServers(redis: TestRedis) {
  const prefix = redis.newPrefix();
  const connection = connectRedis(redis.url, 'test-admin');
  const queues: FleetQueues = openQueues(connection, prefix);
  const running: AdminServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()));
  });
  afterAll(async () => {
    await queues.close();
    await connection.quit();
  });
  const loopback: AdminConfig = { host: '127.0.0.1', port: 0, credentials: {} };
  return {
    prefix,
    connection,
    queues,
    async start(config: Partial<AdminConfig> = {}, deps: Partial<Omit<AdminServerDeps, 'config'>> = {}) {
      const server = await startAdminServer({
        config: { ...loopback, ...config },
        logger: createLogger({ level: 'silent' }),
        metrics: createMetrics({ processMetrics: false }),
        readiness: {},
        dashboard: dashboardQueues(queues),
        ...deps,
      });
      running.push(server);
      return server;
    },
  };
}

/** GET `path` of the server, with optional headers; the status, headers and body text. */
export async function get(server: { url: string }, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
