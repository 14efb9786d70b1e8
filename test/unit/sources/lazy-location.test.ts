import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lazyLocation } from '../../../src/sources/locations/lazy-location.js';
import { openLocalLocation } from '../../../src/sources/locations/local.js';

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe('lazyLocation (a remote client loaded on first use)', () => {
  it('loads the implementation once, on first use, and passes calls and byte ranges through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-lazy-'));
    writeFileSync(join(dir, 'a.csv'), 'hello world');
    let loads = 0;
    const location = lazyLocation('lazy://test', async () => {
      loads++;
      return openLocalLocation();
    });
    expect(location.label).toBe('lazy://test');
    expect(loads).toBe(0);
    expect((await location.list(join(dir, '*.csv'))).map((f) => f.path)).toEqual([join(dir, 'a.csv')]);
    expect(await text(location.read(join(dir, 'a.csv'), { start: 6, end: 11 }))).toBe('world');
    expect(await location.stat(join(dir, 'a.csv'))).toMatchObject({ size: 11 });
    expect(loads).toBe(1);
  });

  it('a client that cannot be loaded (a missing secret) fails each call with its error, reads included', async () => {
    const location = lazyLocation('lazy://broken', () =>
      Promise.reject(new Error('environment variable SFTP_KEY is not set')),
    );
    await expect(location.list('/x/*')).rejects.toThrow('SFTP_KEY is not set');
    await expect(text(location.read('/x/a.csv'))).rejects.toThrow('SFTP_KEY is not set');
    await location.close();
  });
});
