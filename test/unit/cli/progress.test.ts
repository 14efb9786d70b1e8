import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProgressBar, size } from '../../../src/cli/progress.js';

/** A terminal stand-in that keeps what was drawn. */
function screen(): { out: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { out: out as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

const MiB = 1024 * 1024;

describe('progress bar', () => {
  it('fills by bytes read of the total, shows records settled, a rate and an ETA, and ends the line when finished', () => {
    const { out, text } = screen();
    const bar = new ProgressBar(out, 4 * MiB);
    bar.advance({ records: 250, bytes: MiB });
    expect(text()).toMatch(/^\r\[#{6}\.{18}\] 1\.0 MB\/4\.0 MB {2}250 records {2}[\d,]+\/s {2}ETA \d+s $/);
    bar.addTotal(4 * MiB);
    bar.advance({ records: 1_750, bytes: 7 * MiB });
    bar.finish();
    const last = text().split('\r').at(-1) ?? '';
    expect(last).toMatch(/^\[#{24}\] 8\.0 MB\/8\.0 MB {2}2,000 records {2}[\d,]+\/s {2}ETA 0s \n$/);
  });

  it('fills by bytes, not records: records settled without bytes read leave the bar empty', () => {
    const { out, text } = screen();
    const bar = new ProgressBar(out, 1_000);
    bar.advance({ records: 500, bytes: 0 });
    bar.finish();
    expect(text().split('\r').at(-1)).toMatch(/^\[\.{24}\] 0 B\/1000 B {2}500 records /);
  });

  it('never shows more read than the total it was told (files may grow, totals arrive late)', () => {
    const { out, text } = screen();
    const bar = new ProgressBar(out, 10);
    bar.advance({ records: 3, bytes: 12 });
    bar.finish();
    expect(text().split('\r').at(-1)).toMatch(/^\[#{24}\] 12 B\/12 B {2}3 records /);
  });
});

describe('size', () => {
  it('writes bytes for people, in units of 1024', () => {
    expect(size(0)).toBe('0 B');
    expect(size(1023)).toBe('1023 B');
    expect(size(1536)).toBe('1.5 KB');
    expect(size(12 * MiB)).toBe('12.0 MB');
    expect(size(3 * 1024 * MiB)).toBe('3.0 GB');
  });
});
