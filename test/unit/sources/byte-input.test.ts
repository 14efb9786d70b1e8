import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  inputOf,
  readSource,
  readSourceBytes,
  SOURCE_FORMATS,
  Source,
} from '../../../src/sources/formats/registry.js';
import { openLocalLocation } from '../../../src/sources/locations/local.js';
import { openBytes } from '../../../src/sources/raw-file.js';
import { fixtureWriter } from '../../support/source-files.js';

const write = fixtureWriter('byte-input');

describe('the byte-input seam', () => {
  it('hands a bytes format the file undecoded: sha256 of the bytes, progress as the reader counts it', async () => {
    // Not valid in any text encoding the bridge knows: a bytes format must never see a decode.
    const bytes = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00, 0x81, 0x8d]);
    const path = write(bytes, 'bin');
    const opened = openBytes(path);
    expect(opened.input.path).toBe(path);
    expect(opened.bytesRead()).toBe(0);
    opened.input.countRead(4);
    opened.input.countRead(5);
    expect(opened.bytesRead()).toBe(9);
    expect(await opened.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('the text formats read decoded text and have an encoding key', () => {
    for (const name of Object.keys(SOURCE_FORMATS) as (keyof typeof SOURCE_FORMATS)[]) {
      if (inputOf(name) !== 'text') continue;
      const source = Source.parse({ format: name, path: 'x' });
      expect(source).toHaveProperty('encoding', 'auto');
    }
    expect(inputOf('csv')).toBe('text');
    expect(inputOf('jsonl')).toBe('text');
    expect(inputOf('mt940')).toBe('text');
  });

  it('a text format refuses bytes, so a wrong wiring fails loudly instead of reading garbage', () => {
    const source = Source.parse({ format: 'csv', path: 'x' });
    if (source.format !== 'csv') throw new Error('expected a csv source');
    expect(() =>
      readSourceBytes('csv', source, 'x.csv', {
        path: 'x.csv',
        location: openLocalLocation(),
        countRead: () => {},
      }),
    ).toThrow(/reads decoded text, not bytes/);
    expect(() => readSource('csv', source, 'x.csv', Readable.from([]))).not.toThrow();
  });
});
