import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../support/cli-run.js';

/**
 * Other projects' real exports, beside the repository (`../shared/samples`): licensed to be read
 * in place, never copied into erp-bridge. Only `npm run test:samples` (test/samples) reads them;
 * `npm test` stands on the repository's own data. ERP_BRIDGE_SAMPLES_DIR points elsewhere (a
 * worktree whose parent folder has no `shared`).
 */
export const SHARED_SAMPLES = process.env.ERP_BRIDGE_SAMPLES_DIR
  ? resolve(process.env.ERP_BRIDGE_SAMPLES_DIR)
  : resolve(repoRoot, '..', 'shared', 'samples');

/** The path of one shared sample (by its name in ../shared/samples). */
export const sharedSample = (name: string): string => join(SHARED_SAMPLES, name);

/** Why the shared samples cannot be read here, or undefined when they can. */
export function whySharedSamplesMissing(): string | undefined {
  return existsSync(SHARED_SAMPLES)
    ? undefined
    : `${SHARED_SAMPLES} does not exist (the shared samples belong beside the repository, ../shared/samples, or where ERP_BRIDGE_SAMPLES_DIR says)`;
}
