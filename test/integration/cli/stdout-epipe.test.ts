import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** `erp-bridge ... | head`: the reader goes away; the command must end quietly, not die on EPIPE. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Closed before the child writes its first line: every write it makes fails with EPIPE.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('stdout closed by the reader (EPIPE)', () => {
  it.each([['runs', '--help'], ['report', '--help'], ['--help']])(
    'erp-bridge %s ends quietly',
    async (...args) => {
      const ran = await withClosedStdout(args);
      expect(ran.stderr).not.toContain('EPIPE');
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
    },
    30_000,
  );
});
