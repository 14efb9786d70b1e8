import { runSuite } from '../support/suite-runner.js';
import { whyChromiumCannotRun } from './support/chromium.js';

/**
 * `npm run test:browser`: the embedded sign-in and the console in Chromium (vitest.browser.config.ts), or one line
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
runSuite('test:browser', 'vitest.browser.config.ts', reason);
