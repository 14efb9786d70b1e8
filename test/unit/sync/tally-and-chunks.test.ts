import { describe, expect, it } from 'vitest';
import { Chunker } from '../../../src/sync/chunk.js';
import { RunTally } from '../../../src/sync/report/summary.js';

describe('Chunker', () => {
  it('splits into chunks of at most 1000 without losing or reordering items', () => {
    const chunker = new Chunker<number>();
    const chunks: number[][] = [];
    for (let i = 0; i < 2501; i++) {
      const full = chunker.add(i);
      if (full) chunks.push(full);
    }
    const last = chunker.rest();
    if (last) chunks.push(last);
    expect(chunks.map((c) => c.length)).toEqual([1000, 1000, 501]);
    expect(chunks.flat()).toEqual([...Array(2501).keys()]);
    expect(chunker.rest()).toBeUndefined();
  });

  it('refuses chunk sizes beyond the bulk limit', () => {
    expect(() => new Chunker(1001)).toThrow(/between 1 and 1000/);
  });
});

describe('RunTally', () => {
  it('counts outcomes and sums amounts exactly per outcome and overall', () => {
    const tally = new RunTally();
    tally.add({ file: 'f', line: 2, outcome: 'created', amount: '0.1' });
    tally.add({ file: 'f', line: 3, outcome: 'created', amount: '0.2' });
    tally.add({
      file: 'f',
      line: 4,
      outcome: 'rejected',
      amount: '-5',
      code: 'INVALID_RECORD',
      message: 'x',
    });
    tally.add({ file: 'f', line: 5, outcome: 'skipped' });
    expect(tally.countsSnapshot()).toEqual({ created: 2, updated: 0, skipped: 1, rejected: 1, failed: 0 });
    const totals = tally.controlTotals();
    expect(totals.created).toEqual({ records: 2, amount: '0.3' });
    expect(totals.all).toEqual({ records: 4, amount: '-4.7' });
    expect(tally.firstErrors.map((e) => e.line)).toEqual([4]);
    expect(tally.finalState(false)).toBe('completed_with_errors');
    expect(tally.finalState(true)).toBe('stopped');
  });
});
