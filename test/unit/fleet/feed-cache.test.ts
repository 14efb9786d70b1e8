import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { FeedFileCache } from '../../../src/fleet/feed-cache.js';
import { csvFeedText } from '../../support/feed-text.js';

const feedText = (name: string, accountId = 1) => csvFeedText(['path: "*.csv"'], { name, accountId });

describe('FeedFileCache: a feed file parsed once per version of it', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'feed-cache-'));
    file = join(dir, 'feed.yaml');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('an unchanged file is served as loaded, not parsed again', async () => {
    await writeFile(file, feedText('a'));
    const cache = new FeedFileCache();
    const first = await cache.load(file);
    expect(first.feed.name).toBe('a');
    expect(await cache.load(file)).toBe(first);
  });

  it('an edited file is read again, also at the same size', async () => {
    await writeFile(file, feedText('a', 1));
    const cache = new FeedFileCache();
    await cache.load(file);
    await writeFile(file, feedText('a', 2));
    expect((await cache.load(file)).feed.accountId).toBe(2);
    await writeFile(file, feedText('b', 2));
    expect((await cache.load(file)).feed.name).toBe('b');
  });

  it('a file replaced by another (rename over it) is read again', async () => {
    await writeFile(file, feedText('a'));
    const cache = new FeedFileCache();
    await cache.load(file);
    await writeFile(join(dir, 'next.yaml'), feedText('b'));
    await rename(join(dir, 'next.yaml'), file);
    expect((await cache.load(file)).feed.name).toBe('b');
  });

  it('a file that no longer loads throws, and is not kept: fixed, it loads again', async () => {
    await writeFile(file, feedText('a'));
    const cache = new FeedFileCache();
    await cache.load(file);
    await writeFile(file, 'name: [');
    await expect(cache.load(file)).rejects.toThrow(ConfigError);
    await rm(file);
    await expect(cache.load(file)).rejects.toThrow('cannot read the feed file');
    await writeFile(file, feedText('c'));
    expect((await cache.load(file)).feed.name).toBe('c');
  });

  it('keeps at most `max` files, the least recently used going first', async () => {
    const files = ['x', 'y', 'z'].map((name) => join(dir, `${name}.yaml`));
    for (const [i, f] of files.entries()) await writeFile(f, feedText(`f${i}`));
    const cache = new FeedFileCache(2);
    const [x, y, z] = files as [string, string, string];
    const fromX = await cache.load(x);
    const fromY = await cache.load(y);
    expect(await cache.load(x)).toBe(fromX);
    await cache.load(z);
    // y was the least recently used: loaded again (a new object); x was kept.
    expect(await cache.load(x)).toBe(fromX);
    expect(await cache.load(y)).not.toBe(fromY);
  });
});
