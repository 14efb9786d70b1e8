import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../../src/sources/values/amount.js';

const ok = (text: string, sep: ',' | '.') => {
  const r = parseAmount(text, sep);
  if (!r.ok) throw new Error(r.reason);
  return r.value;
};
const reason = (text: string, sep: ',' | '.') => {
  const r = parseAmount(text, sep);
  return r.ok ? undefined : r.reason;
};

describe('parseAmount', () => {
  it('reads German amounts: decimal comma, thousands point', () => {
    expect(ok('1.234,56', ',')).toEqual({ value: 1234.56, decimal: '1234.56' });
    expect(ok('-22,59', ',')).toEqual({ value: -22.59, decimal: '-22.59' });
    expect(ok('1.234.567,8', ',').decimal).toBe('1234567.8');
    expect(ok('100,00', ',').decimal).toBe('100');
  });

  it('reads English amounts: decimal point, thousands comma', () => {
    expect(ok('1,234.56', '.').decimal).toBe('1234.56');
    expect(ok('26.67', '.').value).toBe(26.67);
  });

  it('strips currency symbols and codes on either side, with the sign in any order', () => {
    expect(ok('$26.67', '.').decimal).toBe('26.67');
    expect(ok('-$26.67', '.').decimal).toBe('-26.67');
    expect(ok('$-26.67', '.').decimal).toBe('-26.67');
    expect(ok('1.234,56 EUR', ',').decimal).toBe('1234.56');
    expect(ok('1.234,56 €', ',').decimal).toBe('1234.56');
    expect(ok('EUR -5,00', ',').decimal).toBe('-5');
  });

  it('reads trailing minus, parentheses and explicit plus', () => {
    expect(ok('22,59-', ',').decimal).toBe('-22.59');
    expect(ok('(1,234.50)', '.').decimal).toBe('-1234.5');
    expect(ok('+7,00', ',').decimal).toBe('7');
  });

  it('accepts space, no-break space and apostrophe thousands separators', () => {
    expect(ok('1 234,56', ',').decimal).toBe('1234.56');
    expect(ok('1\u00a0234,56', ',').decimal).toBe('1234.56');
    expect(ok("1'234.56", '.').decimal).toBe('1234.56');
  });

  it('refuses what would be misread under the configured separator', () => {
    expect(reason('1.5', ',')).toMatch(/decimal separator ","/);
    expect(reason('1,5', '.')).toMatch(/decimal separator "\."/);
    expect(reason('1.23.4', ',')).toBeDefined();
    expect(reason('12,34,56', ',')).toBeDefined();
  });

  it('refuses empty cells and text, naming what was expected', () => {
    expect(reason('', ',')).toMatch(/empty cell/);
    expect(reason('abc', ',')).toMatch(/"abc" is not an amount/);
  });

  it('never rounds: a value beyond what a JSON number carries exactly is refused', () => {
    expect(ok('9007199254740991', '.').decimal).toBe('9007199254740991');
    expect(reason('12345678901234567,89', ',')).toMatch(/significant digits/);
    expect(ok('0,00', ',').decimal).toBe('0');
    expect(ok('-0,00', ',').decimal).toBe('0');
  });
});

describe('parseAmount never flips a sign (issue 18, case 6)', () => {
  it.each([
    ['--5,00', ','],
    ['- 5,00 -', ','],
    ['+-5', ','],
    ['-+5', ','],
    ['-5,00-', ','],
    ['5,00--', ','],
    ['(-5,00)', ','],
    ['(5.00)-', '.'],
    ['-EUR -5,00', ','],
  ] as const)('refuses %s, quoting the cell', (text, sep) => {
    expect(reason(text, sep)).toContain(`"${text}"`);
  });

  it.each([
    ['-5,00', '-5'],
    ['- 5,00', '-5'],
    ['5,00-', '-5'],
    ['5,00 -', '-5'],
    ['+5,00', '5'],
    ['5,00+', '5'],
    ['(5,00)', '-5'],
    ['EUR 5,00-', '-5'],
    ['-5,00 EUR', '-5'],
  ])('reads the one-sign form %s as %s', (text, decimal) => {
    expect(ok(text, ',').decimal).toBe(decimal);
  });

  it('reads bare numbers on its fast path exactly as the general path does', () => {
    // A trailing currency code sends a cell down the general (regular expression) path; the
    // alphabet has no letters, so the code is all that differs. A seeded walk over short cells.
    const alphabet = "0123456789.,' -";
    let seed = 42;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    let fast = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const length = 1 + (next() % 12);
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      for (const sep of [',', '.'] as const) {
        const direct = parseAmount(text, sep);
        const general = parseAmount(`${text} EUR`, sep);
        expect({ text, sep, ok: direct.ok }).toEqual({ text, sep, ok: general.ok });
        if (direct.ok && general.ok) {
          expect({ text, sep, ...direct.value }).toEqual({ text, sep, ...general.value });
          fast++;
        }
      }
    }
    // The walk must reach readable amounts, or it compares only refusals.
    expect(fast).toBeGreaterThan(2000);
  });
});
