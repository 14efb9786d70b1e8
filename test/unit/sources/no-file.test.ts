import { describe, expect, it } from 'vitest';
import { globDistance, nearestNames } from '../../../src/sources/locations/no-file.js';

describe('the names nearest to a glob that matched nothing', () => {
  it('counts edits to match, a * any run and a ? any one character at no cost', () => {
    expect(globDistance('bank-*.csv', 'bank-2026.csv')).toBe(0);
    expect(globDistance('bank-*.csv', 'bank_2026.csv')).toBe(1);
    expect(globDistance('bank-?.csv', 'bank-12.csv')).toBe(1);
    expect(globDistance('bank.csv', 'bnak.csv')).toBe(2);
    expect(globDistance('*', '')).toBe(0);
    expect(globDistance('?', '')).toBe(1);
  });

  it('puts the near miss first, case aside, ties by name, at most five', () => {
    const names = ['zeta.txt', 'Umsaetze_01.csv', 'umsaetze-01.csv.tmp', 'a.pdf', 'b.pdf', 'c.pdf', 'd.pdf'];
    const nearest = nearestNames('umsaetze-*.csv', names);
    expect(nearest).toHaveLength(5);
    expect(nearest.slice(0, 2)).toEqual(['Umsaetze_01.csv', 'umsaetze-01.csv.tmp']);
  });
});
