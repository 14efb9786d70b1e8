import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandGlob, type GlobProblem } from '../../../src/sources/glob.js';

describe('expandGlob and symbolic links', () => {
  it('reads a symlinked export, once even beside its target, and reports loops and dangling links', async () => {
    const root = mkdtempSync(join(tmpdir(), 'erp-bridge-glob-'));
    const store = join(root, 'store');
    const feed = join(root, 'feed');
    mkdirSync(store);
    mkdirSync(feed);
    writeFileSync(join(store, 'march.csv'), 'x');
    writeFileSync(join(feed, 'april.csv'), 'x');
    symlinkSync(join(store, 'march.csv'), join(feed, 'march.csv'));
    symlinkSync(join(feed, 'april.csv'), join(feed, 'z-april-again.csv'));
    symlinkSync(join(feed, 'loop-b.csv'), join(feed, 'loop-a.csv'));
    symlinkSync(join(feed, 'loop-a.csv'), join(feed, 'loop-b.csv'));
    symlinkSync(join(store, 'gone.csv'), join(feed, 'dangling.csv'));
    const problems: GlobProblem[] = [];
    const files = await expandGlob(join(feed, '*.csv'), (p) => problems.push(p));
    expect(files).toEqual([join(feed, 'april.csv'), join(feed, 'march.csv')]);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: join(feed, 'loop-a.csv'), problem: expect.stringMatching(/symbolic link loop/) },
        { path: join(feed, 'loop-b.csv'), problem: expect.stringMatching(/symbolic link loop/) },
        { path: join(feed, 'dangling.csv'), problem: expect.stringMatching(/missing file/) },
        {
          path: join(feed, 'z-april-again.csv'),
          problem: expect.stringMatching(/same file as .*april\.csv/),
        },
      ]),
    );
    expect(problems).toHaveLength(4);
  });

  it('follows a symlinked directory in the middle of the pattern, and a cycle of directories ends', async () => {
    const root = mkdtempSync(join(tmpdir(), 'erp-bridge-glob-'));
    mkdirSync(join(root, 'real'));
    writeFileSync(join(root, 'real', 'a.csv'), 'x');
    symlinkSync(join(root, 'real'), join(root, 'linked'));
    symlinkSync(root, join(root, 'real', 'up'));
    const files = await expandGlob(join(root, '*', '*.csv'));
    expect(files.map((f) => f.slice(root.length))).toEqual(['/linked/a.csv']);
  });
});
