import { runSuite } from '../support/suite-runner.js';
import { whySharedSamplesMissing } from './shared-samples.js';

/**
 * `npm run test:samples`: the tests on ../shared/samples (vitest.samples.config.ts), or one line
 * saying why they cannot run here and exit 0 — a clone without ../shared beside it is no failure
 * of the code under test, and `npm test` covers each behaviour with the repository's own data.
 * Extra arguments go to vitest.
 */
runSuite('test:samples', 'vitest.samples.config.ts', whySharedSamplesMissing());
