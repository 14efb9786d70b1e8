import { runSuite } from '../support/suite-runner.js';
import { whyPodmanCannotRun } from './support/preflight.js';

/**
 * `npm run test:containers`: the podman fleet test (vitest.containers.config.ts), or one line saying
 * why it cannot run here and exit 0 — a machine without podman, root or the lab's base images is
 * not a failure of the code under test. Extra arguments go to vitest.
 */
runSuite('test:containers', 'vitest.containers.config.ts', await whyPodmanCannotRun());
