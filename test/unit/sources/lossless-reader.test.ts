import { describe, expect, it } from 'vitest';
import { openText } from '../../../src/sources/decode.js';
import { readCsv } from '../../../src/sources/formats/csv-reader.js';
import { CsvSource } from '../../../src/sources/formats/csv-source.js';
import type { SourceItem } from '../../../src/sources/row.js';
import { fixtureWriter } from '../../support/source-files.js';

/**
 * The CSV reader accounts for every physical line (issue 18, point 2): mixed line endings, a quote
 * never closed, an oversized row, rows whose field count does not fit the header.
 */

const write = fixtureWriter('lossless');

async function read(text: string, source: Partial<CsvSource> = {}, highWaterMark?: number) {
  const path = write(text);
  const parsed = CsvSource.parse({ path: 'x', format: 'csv', delimiter: ';', ...source });
  const { items } = readCsv(path, openText(path, parsed.encoding, highWaterMark).text, parsed);
  const rows: { line: number; id: string | undefined; text: string | undefined }[] = [];
  const problems: { line: number; problem: string }[] = [];
  for await (const item of items as AsyncIterable<SourceItem>) {
    if (item.kind === 'problem') problems.push({ line: item.problem.line, problem: item.problem.problem });
    else rows.push({ line: item.row.line, id: item.row.cell('id'), text: item.row.cell('text') });
  }
  return { rows, problems };
}

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `R${from + i};t${from + i}`);

describe('line endings', () => {
  it('ends a record at CRLF, LF and CR, mixed in one file', async () => {
    const text = `id;text\r\nR1;a\r\nR2;b\nR3;c\rR4;d\r\nR5;e`;
    const { rows, problems } = await read(text);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 2, id: 'R1', text: 'a' },
      { line: 3, id: 'R2', text: 'b' },
      { line: 4, id: 'R3', text: 'c' },
      { line: 5, id: 'R4', text: 'd' },
      { line: 6, id: 'R5', text: 'e' },
    ]);
  });

  it('keeps a CRLF split between two read chunks as one line end', async () => {
    // A chunk of 8 bytes splits "R1;aa\r\n" between \r and \n.
    const text = 'id;text\nR1;aa\r\nR2;bb\r\nR3;cc\r\n';
    const { rows } = await read(text, {}, 14);
    expect(rows.map((r) => [r.line, r.id, r.text])).toEqual([
      [2, 'R1', 'aa'],
      [3, 'R2', 'bb'],
      [4, 'R3', 'cc'],
    ]);
  });
});

describe('a quote never closed', () => {
  it('rejects the row on line 6 of 100 and reads lines 7-101 as records again', async () => {
    const body = lines(100);
    body[4] = 'R5;"never closed';
    const { rows, problems } = await read(['id;text', ...body].join('\r\n'));
    expect(problems).toEqual([
      { line: 6, problem: expect.stringMatching(/never closed.*reading goes on at line 7/) },
    ]);
    expect(rows).toHaveLength(99);
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4, 5, ...Array.from({ length: 95 }, (_, i) => 7 + i)]);
    expect(rows.at(-1)).toEqual({ line: 101, id: 'R100', text: 't100' });
  });

  it('resumes within maxRowBytes when the file is larger (the quote does not swallow the rest)', async () => {
    const body = lines(5000);
    body[9] = 'R10;"never closed';
    const { rows, problems } = await read(['id;text', ...body].join('\n'), { maxRowBytes: 1000 }, 4096);
    expect(problems).toEqual([
      { line: 11, problem: expect.stringMatching(/longer than maxRowBytes \(1000 bytes\)/) },
    ]);
    expect(rows).toHaveLength(4999);
    expect(rows.at(-1)?.line).toBe(5001);
  });

  it('still reads quoted cells with line breaks and counts their lines', async () => {
    const { rows, problems } = await read('id;text\nR1;"two\r\nlines"\nR2;b\n');
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 2, id: 'R1', text: 'two\r\nlines' },
      { line: 4, id: 'R2', text: 'b' },
    ]);
  });
});

describe('an oversized row', () => {
  it('rejects it alone with its line and reads the rows around it', async () => {
    const big = 'x'.repeat(200_000);
    const text = ['id;text', 'R1;a', `R2;${big}`, 'R3;c', `R4;"${big}"`, 'R5;e'].join('\n');
    const { rows, problems } = await read(text, { maxRowBytes: 10_000 }, 8192);
    expect(rows.map((r) => r.id)).toEqual(['R1', 'R3', 'R5']);
    expect(rows.map((r) => r.line)).toEqual([2, 4, 6]);
    expect(problems.map((p) => p.line)).toEqual([3, 5]);
    expect(problems[0]?.problem).toMatch(/longer than maxRowBytes \(10000 bytes\)/);
  });
});

describe('field count', () => {
  const source = { delimiter: ';' };
  it('rejects a short row naming the missing columns', async () => {
    const { rows, problems } = await read('id;text;Betrag;Waehrung\nR1;a;1;EUR\nR2;b\n', source);
    expect(rows.map((r) => r.id)).toEqual(['R1']);
    expect(problems).toEqual([
      { line: 3, problem: 'row has 2 fields, the header has 4: missing "Betrag", "Waehrung"' },
    ]);
  });

  it('rejects a long row naming the extra fields, and tolerates empty trailing fields', async () => {
    const { rows, problems } = await read('id;text\nR1;a;;\nR2;b;xyz\n', source);
    expect(rows.map((r) => r.id)).toEqual(['R1']);
    expect(problems).toEqual([
      { line: 3, problem: 'row has 3 fields, the header has 2: extra field 3 "xyz"' },
    ]);
  });
});

describe('a preamble before headerPattern', () => {
  it('skips a preamble line with a quote never closed and reads the rows after the header', async () => {
    const text = ['Konto;"Giro ohne Ende', 'Zeitraum;Februar', 'id;text', 'R1;a', 'R2;b'].join('\n');
    const { rows, problems } = await read(text, { headerPattern: '^id;' });
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 4, id: 'R1', text: 'a' },
      { line: 5, id: 'R2', text: 'b' },
    ]);
  });
});
