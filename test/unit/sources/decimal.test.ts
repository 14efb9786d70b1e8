import { describe, expect, it } from 'vitest';
import { addDecimals, DecimalSum, negateDecimal } from '../../../src/sources/values/decimal.js';

describe('exact decimals', () => {
  it('adds without binary floating-point error', () => {
    expect(addDecimals('0.1', '0.2')).toBe('0.3');
    expect(addDecimals('-22.59', '22.59')).toBe('0');
    expect(addDecimals('1234.5', '-0.005')).toBe('1234.495');
    expect(addDecimals('-1', '0.25')).toBe('-0.75');
  });

  it('negates canonical decimals', () => {
    expect(negateDecimal('12.5')).toBe('-12.5');
    expect(negateDecimal('-12.5')).toBe('12.5');
    expect(negateDecimal('0')).toBe('0');
  });

  it('sums a million cents exactly', () => {
    const sum = new DecimalSum();
    for (let i = 0; i < 1_000_000; i++) sum.add('0.01');
    expect(sum.toString()).toBe('10000');
    sum.add('-10000.001');
    expect(sum.toString()).toBe('-0.001');
  });
});
