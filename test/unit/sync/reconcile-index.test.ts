import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/registry.js';
import { Comparison } from '../../../src/sync/reconcile/compare.js';
import { KeyIndex, STATE } from '../../../src/sync/reconcile/key-index.js';

describe('the reconcile key index', () => {
  it('finds every key after growing, tells a repeat, keeps state, digest and service id per key', () => {
    const index = new KeyIndex();
    for (let i = 0; i < 5_000; i++) expect(index.add(`T-${i}`).added).toBe(true);
    expect(index.size).toBe(5_000);
    expect(index.add('T-42').added).toBe(false);
    expect(index.find('T-5000')).toBe(-1);
    const slot = index.find('T-4999');
    index.setValues(slot, 0b101, [7, 9]);
    expect(index.sameDigest(slot, [7, 9])).toBe(true);
    expect(index.matched(slot)).toBe(false);
    index.match(slot, STATE.different, 123456789012);
    expect(index.add('x').added).toBe(true); // the table may grow again: an entry keeps its data
    const moved = index.find('T-4999');
    expect([index.state(moved), index.heldId(moved), index.mask(moved)]).toEqual([
      STATE.different,
      123456789012,
      0b101,
    ]);
    expect(index.report(moved)).toBe(true);
    expect(index.report(moved)).toBe(false);
    expect(index.state(moved)).toBe(STATE.different);
  });
});

describe('the reconcile comparison', () => {
  const comparison = new Comparison(KINDS.transactions.fields, [
    'externalId',
    'bookingDate',
    'amount',
    'purpose',
    'counterpartyName',
  ]);

  it('compares the mapped fields as a sync does: amounts as numbers, dates as days, empty cells not at all', () => {
    expect(comparison.fields).toEqual(['bookingDate', 'amount', 'purpose', 'counterpartyName']);
    const source = { bookingDate: '2026-02-01', amount: 10.5, purpose: 'Rent' };
    const held = {
      bookingDate: '2026-02-01T00:00:00Z',
      amount: 10.5,
      purpose: 'Rent',
      counterpartyName: 'X',
    };
    const mask = comparison.maskOf(source);
    expect(comparison.differences(source, held, mask)).toEqual([]);
    expect(comparison.digest(source, mask)).toEqual(comparison.digest(held, mask));
    const edited = { ...held, amount: 10.51, purpose: 'Rent March' };
    expect(comparison.differences(source, edited, mask)).toEqual([
      { field: 'amount', source: 10.5, service: 10.51 },
      { field: 'purpose', source: 'Rent', service: 'Rent March' },
    ]);
    expect(comparison.digest(edited, mask)).not.toEqual(comparison.digest(source, mask));
  });

  it('the digest says equal exactly when the field comparison finds no difference', () => {
    const mask = comparison.maskOf({ bookingDate: 'x', amount: 1, purpose: 'x' });
    const source = { bookingDate: '2026-02-01', amount: 10.5, purpose: '5' };
    const pairs: Record<string, unknown>[] = [
      { bookingDate: '2026-02-01T08:00:00Z', amount: '10.50', purpose: '5' },
      { bookingDate: '2026-02-01', amount: 10.5, purpose: 5 },
      { bookingDate: '2026-02-01', amount: 10.5, purpose: null },
      { bookingDate: '2026-02-02', amount: 10.5, purpose: '5' },
    ];
    for (const held of pairs) {
      const equal = comparison.differences(source, held, mask).length === 0;
      const sameDigest =
        JSON.stringify(comparison.digest(source, mask)) === JSON.stringify(comparison.digest(held, mask));
      expect({ held, sameDigest }).toEqual({ held, sameDigest: equal });
    }
  });
});
