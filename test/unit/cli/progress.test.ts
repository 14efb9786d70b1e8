import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { countLines, ProgressBar } from '../../../src/cli/progress.js';

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

describe('progress bar', () => {
  it('shows records done of the total, a rate and an ETA, and ends the line when finished', () => {
    const { out, text } = screen();
    const bar = new ProgressBar(out, 1_000);
    bar.advance(250);
    expect(text()).toMatch(/^\r\[#{6}\.{18}\] 250\/1,000 records {2}[\d,]+\/s {2}ETA \d+s $/);
    bar.addTotal(1_000);
    bar.advance(1_750);
    bar.finish();
    const last = text().split('\r').at(-1) ?? '';
    expect(last).toMatch(/^\[#{24}\] 2,000\/2,000 records {2}[\d,]+\/s {2}ETA 0s \n$/);
  });

  it('never shows more done than the total it was told (an estimate from line counts)', () => {
    const { out, text } = screen();
    const bar = new ProgressBar(out, 10);
    bar.advance(12);
    bar.finish();
    expect(text().split('\r').at(-1)).toContain('12/12 records');
  });
});

describe('countLines', () => {
  it('counts the line breaks of a file (the ETA estimate of records to come)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'erp-bridge-lines-'));
    const file = join(dir, 'export.csv');
    await writeFile(file, 'h1;h2\r\na;1\r\nb;2\r\n');
    expect(await countLines(file)).toBe(3);
    await writeFile(file, '');
    expect(await countLines(file)).toBe(0);
  });
});
