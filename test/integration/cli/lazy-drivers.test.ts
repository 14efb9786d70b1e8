import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/cli-run.js';

/**
 * The database drivers (pg, pg-cursor, mysql2) are loaded by a database feed's first read, never
 * by a command that reads none: every sync and worker start would pay for them (issue 30).
 */
function syncLoading(feed: string): Promise<{ code: number | null; loaded: string[] }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './test/support/module-watch.mjs',
      'src/cli/main.ts',
      'sync',
      '--sandbox',
      '--dry-run',
      feed,
    ],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ERP_BRIDGE_WATCH_MODULES: '^(pg|pg-cursor|mysql2|yaml)(/|$)',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    stderr += b.toString();
  });
  return new Promise((resolve) =>
    child.on('exit', (code) =>
      resolve({ code, loaded: [...stderr.matchAll(/^module loaded: (.+)$/gm)].map((m) => m[1] as string) }),
    ),
  );
}

describe('database drivers load only for a database feed', () => {
  it('a sync of a CSV feed loads none of them', async () => {
    const ran = await syncLoading('config/feeds/demo/sparkasse.yaml');
    expect(ran.code).toBe(0);
    // yaml (the feed loader's) is watched too: the watch sees what the command loads.
    expect(new Set(ran.loaded)).toEqual(new Set(['yaml']));
  });
});
