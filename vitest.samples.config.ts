import { defineConfig } from 'vitest/config';

/**
 * `npm run test:samples` (through test/samples/run.ts, which says why it skips when ../shared is
 * not beside the repository): the readers and whole syncs on other projects' real exports and the
 * peer parsers' test files with their expected parses, read in place from ../shared/samples (their
 * licences let us read them, not make them part of erp-bridge). Not part of `npm test`
 * (vitest.config.ts leaves test/samples out): a bare clone has no ../shared.
 */
export default defineConfig({
  test: {
    include: ['test/samples/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    globalSetup: ['test/support/redis-global-setup.ts'],
  },
});
