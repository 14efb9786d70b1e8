import { describe, expect, it } from 'vitest';
import { globMatcher, hasWildcard, literalPrefix } from '../../../src/sources/locations/glob-match.js';

describe('globMatcher', () => {
  it('matches * as any run and ? as one character, within a segment', () => {
    const match = globMatcher('bank-*.csv');
    expect(['bank-.csv', 'bank-2024-03.csv', 'bank-a.b.csv'].filter(match)).toHaveLength(3);
    expect(['bank-1.CSV', 'xbank-1.csv', 'bank-1.csv.done', 'bank-a/b.csv'].filter(match)).toEqual([]);
    const one = globMatcher('m?.csv');
    expect(['m1.csv', 'mä.csv', 'm😀.csv'].every(one)).toBe(true);
    expect(['m.csv', 'm12.csv', 'm/.csv'].some(one)).toBe(false);
  });

  it('never lets a wildcard cross a / in a whole path or key', () => {
    const match = globMatcher('exports/*/bank-?.csv');
    expect(match('exports/acme/bank-1.csv')).toBe(true);
    expect(match('exports/acme/2024/bank-1.csv')).toBe(false);
    expect(match('exports//bank-1.csv')).toBe(true);
  });

  it('takes every other character literally, regex syntax included', () => {
    expect(globMatcher('a.b')('axb')).toBe(false);
    expect(globMatcher('[x](1)+$^{2}|\\*.csv')('[x](1)+$^{2}|\\q.csv')).toBe(true);
    expect(globMatcher('plain.csv')('plain.csv')).toBe(true);
    expect(globMatcher('plain.csv')('plain.csvx')).toBe(false);
  });
});

describe('literalPrefix and hasWildcard', () => {
  it('cut at the first wildcard', () => {
    expect(literalPrefix('exports/acme/bank-*.csv')).toBe('exports/acme/bank-');
    expect(literalPrefix('exports/?/x')).toBe('exports/');
    expect(literalPrefix('exports/x.csv')).toBe('exports/x.csv');
    expect(hasWildcard('a/b?')).toBe(true);
    expect(hasWildcard('a/b[1]')).toBe(false);
  });
});
