import { spawn } from 'node:child_process';
import { whyChromiumCannotRun } from './support/chromium.js';

/**
 * `npm run test:browser`: the embedded sign-in in Chromium (vitest.browser.config.ts), or one line
 * saying why it cannot run here and exit 0 — a machine without Chromium is not a failure of the
 * code under test (.ci/run installs it). Extra arguments go to vitest.
 */
let reason: string | undefined;
try {
  reason = whyChromiumCannotRun();
} catch (error) {
  console.error(`test:browser: ${(error as Error).message}`);
  process.exit(1);
}
if (reason !== undefined) {
  console.log(`test:browser skipped: ${reason}`);
  process.exit(0);
}
const started = Date.now();
const vitest = spawn(
  'npx',
  ['vitest', 'run', '--config', 'vitest.browser.config.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
vitest.on('exit', (code, signal) => {
  console.log(`test:browser: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(code ?? (signal ? 1 : 0));
});
