import { spawn } from 'node:child_process';
import { whyPodmanCannotRun } from './support/preflight.js';

/**
 * `npm run test:containers`: the podman fleet test (vitest.containers.config.ts), or one line saying
 * why it cannot run here and exit 0 — a machine without podman, root or the lab's base images is
 * not a failure of the code under test. Extra arguments go to vitest.
 */
const reason = await whyPodmanCannotRun();
if (reason !== undefined) {
  console.log(`test:containers skipped: ${reason}`);
  process.exit(0);
}
const started = Date.now();
const vitest = spawn(
  'npx',
  ['vitest', 'run', '--config', 'vitest.containers.config.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
vitest.on('exit', (code, signal) => {
  console.log(`test:containers: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(code ?? (signal ? 1 : 0));
});
