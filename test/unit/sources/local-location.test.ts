import { mkdtempSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globBase, globMatcher, segmentMatcher } from '../../../src/sources/glob.js';
import { careForFile, verdictOf } from '../../../src/sources/locations/after-care.js';
import { exportFile, nameOf, readChunks } from '../../../src/sources/locations/export-file.js';
import { openLocalLocation } from '../../../src/sources/locations/local.js';
import type { Location } from '../../../src/sources/locations/location.js';
import { openLocation } from '../../../src/sources/locations/open-location.js';

const folder = () => mkdtempSync(join(tmpdir(), 'erp-bridge-local-location-'));

async function text(location: Location, path: string, range?: { start: number; end?: number }) {
  const parts: Buffer[] = [];
  for await (const chunk of location.read(path, range)) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

describe('the local location', () => {
  it('lists the glob as expandGlob does (sorted, links followed, each real file once) with size and mtime', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'b.csv'), 'bbbb');
    writeFileSync(join(dir, 'a.csv'), 'aa');
    writeFileSync(join(dir, 'a.txt'), 'not matched');
    symlinkSync(join(dir, 'a.csv'), join(dir, 'c.csv'));
    utimesSync(join(dir, 'b.csv'), new Date('2026-01-02T03:04:05Z'), new Date('2026-01-02T03:04:05Z'));
    const problems: string[] = [];
    const location = openLocalLocation({ onProblem: (p) => problems.push(p.path) });
    const files = await location.list(join(dir, '*.csv'));
    expect(files.map((f) => [f.path, f.size])).toEqual([
      [join(dir, 'a.csv'), 2],
      [join(dir, 'b.csv'), 4],
    ]);
    expect(files[1]?.mtimeMs).toBe(Date.parse('2026-01-02T03:04:05Z'));
    expect(problems).toEqual([join(dir, 'c.csv')]);
    expect(location.label).toBe('local');
  });

  it('reads byte ranges with an exclusive end, the whole file by default, nothing for an empty range', async () => {
    const dir = folder();
    const path = join(dir, 'x.csv');
    writeFileSync(path, '0123456789');
    const location = openLocalLocation();
    expect(await text(location, path)).toBe('0123456789');
    expect(await text(location, path, { start: 2, end: 5 })).toBe('234');
    expect(await text(location, path, { start: 7 })).toBe('789');
    expect(await text(location, path, { start: 4, end: 4 })).toBe('');
  });

  it('re-chunks reads to the reader chunk size, so small test chunks still fall inside characters', async () => {
    const dir = folder();
    const path = join(dir, 'x.csv');
    writeFileSync(path, 'abcdefghij');
    const chunks: string[] = [];
    for await (const c of readChunks(exportFile(openLocalLocation(), path), { start: 1 }, 4))
      chunks.push(c.toString());
    expect(chunks).toEqual(['bcde', 'fghi', 'j']);
  });

  it('stats a file, and says undefined for one that is gone or a folder', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'x.csv'), 'abc');
    const location = openLocalLocation();
    expect(await location.stat(join(dir, 'x.csv'))).toMatchObject({ path: join(dir, 'x.csv'), size: 3 });
    expect(await location.stat(join(dir, 'gone.csv'))).toBeUndefined();
    expect(await location.stat(dir)).toBeUndefined();
  });

  it('moves a file into a folder it creates (relative to the file, or absolute) and removes files', async () => {
    const dir = folder();
    const path = join(dir, 'x.csv');
    writeFileSync(path, 'abc');
    const location = openLocalLocation();
    const moved = await location.move(path, 'processed');
    expect(moved).toBe(join(dir, 'processed', 'x.csv'));
    expect(readFileSync(moved, 'utf8')).toBe('abc');
    expect(await location.stat(path)).toBeUndefined();
    // A second file of the same name never overwrites the first one moved there.
    writeFileSync(path, 'newer');
    await expect(location.move(path, 'processed')).rejects.toThrow(/exists already/);
    expect(readFileSync(moved, 'utf8')).toBe('abc');
    const elsewhere = join(folder(), 'deep', 'er');
    expect(await location.move(moved, elsewhere)).toBe(join(elsewhere, 'x.csv'));
    await location.remove(join(elsewhere, 'x.csv'));
    expect(await location.stat(join(elsewhere, 'x.csv'))).toBeUndefined();
  });

  it('is what openLocation gives without a location and for `type: local`', async () => {
    expect(openLocation(undefined, {}).label).toBe('local');
    expect(openLocation({ type: 'local' }, {}).label).toBe('local');
  });
});

describe('names in reports', () => {
  it('keeps a local path, puts a remote location label before its path or key', () => {
    const remote = (label: string): Location => ({ ...openLocalLocation(), label });
    expect(nameOf(openLocalLocation(), '/srv/x.csv')).toBe('/srv/x.csv');
    expect(nameOf(remote('sftp://acme@host:22'), '/in/bank-1.csv')).toBe('sftp://acme@host:22/in/bank-1.csv');
    expect(nameOf(remote('s3://bucket'), 'in/bank-1.csv')).toBe('s3://bucket/in/bank-1.csv');
  });
});

describe('the glob matcher for remote listings', () => {
  it('matches `/`-separated paths segment by segment, without resolving anything', () => {
    const match = globMatcher('/in/acme/bank-*.csv');
    expect(match('/in/acme/bank-1.csv')).toBe(true);
    expect(match('/in/acme/bank-.csv')).toBe(true);
    expect(match('/in/acme/sub/bank-1.csv')).toBe(false);
    expect(match('/in/acme/bank-1.csv.done')).toBe(false);
    expect(match('in/acme/bank-1.csv')).toBe(false);
    expect(globMatcher('exports/?/x-*.csv')('exports/a/x-1.csv')).toBe(true);
    expect(globMatcher('exports/?/x-*.csv')('exports/ab/x-1.csv')).toBe(false);
  });

  it('never matches a path with a `.` or `..` segment, which a server would resolve out of the folder', () => {
    expect(globMatcher('/in/*/x.csv')('/in/../x.csv')).toBe(false);
    expect(globMatcher('/in/*/x.csv')('/in/./x.csv')).toBe(false);
    expect(globMatcher('/in/*')('/in/..')).toBe(false);
  });

  it('treats regular-expression characters literally and gives the listing base', () => {
    expect(segmentMatcher('a+(b).csv')('a+(b).csv')).toBe(true);
    expect(segmentMatcher('a+(b).csv')('aa(b)xcsv')).toBe(false);
    expect(globBase('/in/acme/*/x-*.csv')).toBe('/in/acme');
    expect(globBase('exports/x.csv')).toBe('exports/x.csv');
  });
});

describe('after-care of one file', () => {
  it('decides failed for a stopped run or failed records, processed otherwise (rejected rows too)', () => {
    expect(verdictOf(false, 0)).toBe('processed');
    expect(verdictOf(false, 3)).toBe('failed');
    expect(verdictOf(true, 0)).toBe('failed');
  });

  it('moves the file and its marker into the verdict folder beside it, deletes both, or leaves them', async () => {
    const dir = folder();
    const location = openLocalLocation();
    const path = join(dir, 'x.csv');
    const marker = `${path}.done`;
    const care = { action: 'move', processedFolder: 'processed', failedFolder: 'failed' } as const;
    writeFileSync(path, 'x');
    writeFileSync(marker, '');
    expect(await careForFile(location, path, care, 'failed', marker)).toBe(
      `moved to ${join(dir, 'failed', 'x.csv')}`,
    );
    expect(await location.stat(join(dir, 'failed', 'x.csv.done'))).toBeDefined();
    writeFileSync(path, 'x');
    expect(await careForFile(location, path, care, 'processed')).toBe(
      `moved to ${join(dir, 'processed', 'x.csv')}`,
    );
    writeFileSync(path, 'x');
    writeFileSync(marker, '');
    expect(await careForFile(location, path, { action: 'delete' }, 'processed', marker)).toBe('deleted');
    expect(await location.stat(path)).toBeUndefined();
    expect(await location.stat(marker)).toBeUndefined();
    writeFileSync(path, 'x');
    expect(await careForFile(location, path, { action: 'leave' }, 'failed')).toBeUndefined();
    expect(await location.stat(path)).toBeDefined();
  });
});
