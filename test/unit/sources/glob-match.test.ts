import { describe, expect, it } from 'vitest';
import { globMatcher, hasWildcard, segmentMatcher } from '../../../src/sources/glob.js';
import { listingPrefix } from '../../../src/sources/locations/s3-keys.js';

describe('the one glob matcher of every location (segmentMatcher, globMatcher)', () => {
  it('matches * as any run and ? as one character, within a segment', () => {
    const match = segmentMatcher('bank-*.csv');
    expect(['bank-.csv', 'bank-2024-03.csv', 'bank-a.b.csv'].filter(match)).toHaveLength(3);
    expect(['bank-1.CSV', 'xbank-1.csv', 'bank-1.csv.done', 'bank-a/b.csv'].filter(match)).toEqual([]);
    const one = segmentMatcher('m?.csv');
    expect(['m1.csv', 'mä.csv', 'm😀.csv'].every(one)).toBe(true);
    expect(['m.csv', 'm12.csv', 'm/.csv'].some(one)).toBe(false);
  });

  it('never lets a wildcard cross a / in a whole path or key', () => {
    const match = globMatcher('exports/*/bank-?.csv');
    expect(match('exports/acme/bank-1.csv')).toBe(true);
    expect(match('exports/acme/2024/bank-1.csv')).toBe(false);
    expect(match('exports//bank-1.csv')).toBe(true);
    expect(match('exports/../bank-1.csv')).toBe(false);
  });

  it('takes every other character literally, regex syntax included', () => {
    expect(globMatcher('a.b')('axb')).toBe(false);
    expect(globMatcher('[x](1)+$^{2}|\\*.csv')('[x](1)+$^{2}|\\q.csv')).toBe(true);
    expect(globMatcher('plain.csv')('plain.csv')).toBe(true);
    expect(globMatcher('plain.csv')('plain.csvx')).toBe(false);
  });
});

describe('listingPrefix and hasWildcard', () => {
  it('cut at the first wildcard', () => {
    expect(listingPrefix('exports/acme/bank-*.csv')).toBe('exports/acme/bank-');
    expect(listingPrefix('exports/?/x')).toBe('exports/');
    expect(listingPrefix('exports/x.csv')).toBe('exports/x.csv');
    expect(hasWildcard('a/b?')).toBe(true);
    expect(hasWildcard('a/b[1]')).toBe(false);
  });
});
