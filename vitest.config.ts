import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Run on their own: the podman fleet (npm run test:containers, vitest.containers.config.ts),
    // the embedded sign-in in Chromium (npm run test:browser, vitest.browser.config.ts) and the
    // tests on other projects' files in ../shared/samples (npm run test:samples, vitest.samples.config.ts).
    exclude: [...configDefaults.exclude, 'test/containers/**', 'test/browser/**', 'test/samples/**'],
    environment: 'node',
    // Hang guards, not speed limits: a test that spawns the CLI a few times needs minutes on a
    // 2-core machine at load 15 (each start is ~1.6 s of CPU), and the suite must pass there.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Integration tests start real servers on loopback; two cores, so keep parallelism modest.
    maxWorkers: 2,
    // One Redis per run (REDIS_URL, else redis-server, else testcontainers); see test/support/redis.ts.
    globalSetup: ['test/support/redis-global-setup.ts'],
  },
});
