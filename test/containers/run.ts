import { spawn } from 'node:child_process';
import { EXPORTS_ON_SFTP, SFTP_PENDING } from './support/export-source.js';
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
if (!EXPORTS_ON_SFTP) console.log(`test:containers: exports on SFTP ${SFTP_PENDING}`);
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
