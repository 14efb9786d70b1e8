import { defineConfig } from 'vitest/config';

/**
 * `npm run test:containers` (through test/containers/run.ts, which says why it skips when podman
 * cannot run): the fleet in podman containers. Not part of `npm test` (vitest.config.ts leaves
 * test/containers out): it builds images and needs root and the container lab.
 */
export default defineConfig({
  test: {
    include: ['test/containers/**/*.test.ts'],
    environment: 'node',
    // Image builds and whole fleet runs; each wait inside is bounded on its own.
    testTimeout: 600_000,
    hookTimeout: 900_000,
    // One lab at a time: containers, not vitest workers, are the parallel part.
    maxWorkers: 1,
    fileParallelism: false,
    // Every step by name, skipped ones with their reason (the pending SFTP part says what it needs).
    reporters: ['verbose'],
  },
});
