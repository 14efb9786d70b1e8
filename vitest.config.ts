import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The podman fleet test runs on its own: npm run test:containers (vitest.containers.config.ts).
    exclude: [...configDefaults.exclude, 'test/containers/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start real servers on loopback; two cores, so keep parallelism modest.
    maxWorkers: 2,
    // One Redis per run (REDIS_URL, else redis-server, else testcontainers); see test/support/redis.ts.
    globalSetup: ['test/support/redis-global-setup.ts'],
  },
});
