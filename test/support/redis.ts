import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { type RedisServer, type RedisSource, startRedisServer } from './redis-server.js';

export interface TestRedis {
  url: string;
  source: RedisSource;
  /** Unique to this testRedis() call, so test files share the server without sharing keys. */
  prefix: string;
  /** A fresh prefix under `prefix`, for one test. */
  newPrefix(): string;
  /** A client for assertions; closed by cleanup(). */
  connect(): Redis;
  /** Deletes every key containing `prefix` and closes the clients from connect(). */
  cleanup(): Promise<void>;
}

/**
 * The run's shared Redis (started once by redis-global-setup.ts) with a key prefix of this file's
 * own. Call it once per file; `afterAll(() => redis.cleanup())`.
 */
export function testRedis(): TestRedis {
  const provided = inject('testRedis');
  if ('error' in provided) throw new Error(provided.error);
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const clients: Redis[] = [];
  let count = 0;
  const connect = () => {
    const client = new Redis(provided.url);
    clients.push(client);
    return client;
  };
  return {
    ...provided,
    prefix,
    newPrefix: () => `${prefix}-${++count}`,
    connect,
    cleanup: async () => {
      const client = connect();
      for await (const keys of client.scanStream({ match: `*${prefix}*`, count: 500 })) {
        if ((keys as string[]).length) await client.unlink(...(keys as string[]));
      }
      await Promise.all(clients.splice(0).map((c) => c.quit()));
    },
  };
}

/**
 * A Redis of the caller's own that survives restart(): append-only with fsync per write in a temp
 * dir, same port after the restart. It never uses REDIS_URL (a server we do not own cannot be
 * restarted) nor the shared server (restarting it would disturb other files): it spawns redis-server,
 * else starts a container. `afterAll(() => server.stop())`.
 */
export async function startRestartableRedis(): Promise<RedisServer> {
  const server = await startRedisServer({ persistent: true });
  console.log(`[test redis] restartable ${server.source} at ${server.url}`);
  return server;
}
