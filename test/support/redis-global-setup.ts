import type { TestProject } from 'vitest/node';
import { type RedisServer, type RedisSource, startRedisServer } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared Redis, or why there is none (tests asking for it then fail with the reason). */
    testRedis: { url: string; source: RedisSource } | { error: string };
  }
}

/**
 * One Redis for the whole test run (vitest globalSetup): REDIS_URL if set, else a redis-server binary
 * spawned on a free port, else a testcontainers redis:7-alpine; stopped at teardown. Test files reach
 * it through testRedis() in ./redis.ts, each with its own key prefix.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.REDIS_URL;
  if (url) {
    console.log(`[test redis] using REDIS_URL ${url}`);
    project.provide('testRedis', { url, source: 'REDIS_URL' });
    return undefined;
  }
  let server: RedisServer;
  try {
    server = await startRedisServer();
  } catch (error: unknown) {
    // Not fatal here: runs without Redis tests (e.g. test/unit) must not need Docker.
    const reason = `no REDIS_URL, no redis-server binary, and testcontainers failed: ${String(error)}`;
    console.warn(`[test redis] ${reason}`);
    project.provide('testRedis', { error: reason });
    return undefined;
  }
  console.log(`[test redis] using ${server.source} at ${server.url}`);
  project.provide('testRedis', { url: server.url, source: server.source });
  return () => server.stop();
}
