import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type LineFormat, OrderedLines } from '../../../src/report-files/ordered-lines.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';

const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-ordered-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two outputs: "file:line" per line, and the outcome's JSON (read back on the merge path). */
const format: LineFormat = {
  headers: ['where\n', ''],
  lines: (o) => [`${o.file}:${o.line}\n`, `${JSON.stringify(o)}\n`],
  parseFrom: 1,
  parse: (line) => JSON.parse(line) as RecordOutcome,
};

const outcome = (file: string, line: number): RecordOutcome => ({ file, line, outcome: 'created' });

async function written(name: string, batches: RecordOutcome[][], window: number) {
  const outputs = [join(dir, `${name}.txt`), join(dir, `${name}.ndjson`)];
  const ordered = new OrderedLines(outputs, format, join(dir, `.${name}.spill`), window);
  for (const batch of batches) await ordered.add(batch);
  await ordered.finish();
  const [where, json] = outputs.map((path) => readFileSync(path, 'utf8').split('\n').filter(Boolean));
  return { where: where ?? [], json: json ?? [] };
}

const range = (file: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => outcome(file, from + i));

describe('OrderedLines', () => {
  it('writes batches arriving in order straight through, header first, and leaves no part or spill file', async () => {
    const batches = [range('a', 1, 40), range('a', 40, 90), range('b', 1, 30)];
    const { where, json } = await written('in-order', batches, 10);
    expect(where[0]).toBe('where');
    expect(where.slice(1)).toEqual([...batches.flat().map((o) => `${o.file}:${o.line}`)]);
    expect(json.map((line) => JSON.parse(line))).toEqual(batches.flat());
    expect(readdirSync(dir).filter((f) => f.startsWith('in-order') || f.startsWith('.in-order'))).toEqual([
      'in-order.ndjson',
      'in-order.txt',
    ]);
  });

  it('merges outcomes that arrive after greater ones were written (late) into their place', async () => {
    // A window of 5: after 10 outcomes wait, the 5 smallest are written; lines 1-20 of "a" then
    // arrive after lines 21-60 were written, and a lone "a" line 0 at the very end.
    const batches = [
      range('a', 21, 41),
      range('b', 5, 9),
      range('a', 41, 61),
      range('a', 1, 21),
      [outcome('a', 0)],
    ];
    const { where, json } = await written('late', batches, 5);
    const expected = [...range('a', 0, 61), ...range('b', 5, 9)];
    expect(where.slice(1)).toEqual(expected.map((o) => `${o.file}:${o.line}`));
    expect(json.map((line) => JSON.parse(line))).toEqual(expected);
    expect(readdirSync(dir).filter((f) => f.includes('late'))).toEqual(['late.ndjson', 'late.txt']);
  });

  it('writes the headers alone for a run without outcomes', async () => {
    const { where, json } = await written('empty', [], 5);
    expect(where).toEqual(['where']);
    expect(json).toEqual([]);
  });
});
