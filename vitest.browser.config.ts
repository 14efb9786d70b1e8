import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser` (through test/browser/run.ts, which says why it skips when Chromium is
 * missing): the embedded sign-in and the console's pages in a real Chromium driven by
 * playwright-core. Not part of
 * `npm test` (vitest.config.ts leaves test/browser out): it needs Debian's chromium package.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One browser at a time on a 2-core machine; the cases of a file share one sandbox and browser.
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['verbose'],
    // The console's pages read a fleet's Redis (test/support/redis.ts), as in `npm test`.
    globalSetup: ['test/support/redis-global-setup.ts'],
  },
});
