import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A misspelt level is a usage error (exit 2): falling back to "info" would hide the typo. */
describe('--log-level', () => {
  it.each([['sync', 'config/feeds/demo/sparkasse.yaml', '--sandbox'], ['worker']])(
    '%s refuses an unknown level before doing anything',
    (...args) => {
      const ran = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'src/cli/main.ts', ...args, '--log-level', 'verbose'],
        { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME }, encoding: 'utf8' },
      );
      expect(ran.status).toBe(2);
      expect(ran.stderr).toContain("option '--log-level <level>' argument 'verbose' is invalid");
      expect(ran.stderr).toContain('fatal, error, warn, info, debug, trace, silent');
    },
    30_000,
  );
});
