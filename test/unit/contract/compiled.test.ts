import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { compiled, compileLater, TransactionInput } from '../../../src/contract/index.js';

const valid = {
  bookingDate: '2026-01-02',
  amount: 12.5,
  currency: 'EUR',
  purpose: 'Miete',
  externalId: 'e1',
};
const invalid = { bookingDate: '2026-13-02', amount: '12.50', bogus: true };

describe('compiled (a schema compiled once it has checked many values)', () => {
  it('compiles only after the given number of parses, then checks with the compiled schema', () => {
    const compiles: unknown[] = [];
    const check = compileLater(TransactionInput, 3, (schema) => {
      compiles.push(schema);
      return z.compile(schema);
    });
    check.safeParse(valid);
    check.safeParse(invalid);
    expect(compiles).toEqual([]);
    check.safeParse(valid);
    expect(compiles).toEqual([TransactionInput]);
    for (let i = 0; i < 5; i++) check.safeParse(valid);
    expect(compiles).toHaveLength(1);
  });

  it("counts a value's top-level arrays as records: a chunk compiles as soon as its records would", () => {
    const compiles: unknown[] = [];
    const chunk = z.object({ records: z.array(TransactionInput) });
    const check = compileLater(chunk, 10, (schema) => {
      compiles.push(schema);
      return z.compile(schema);
    });
    check.safeParse({ records: [valid, valid, valid] });
    expect(compiles).toEqual([]);
    check.safeParse({ records: Array.from({ length: 6 }, () => valid) });
    expect(compiles).toEqual([chunk]);
  });

  it('gives the interpreted parse’s results and issues before and after compiling', () => {
    const check = compileLater(TransactionInput, 2);
    for (let i = 0; i < 6; i++) {
      expect(check.safeParse(valid)).toEqual(TransactionInput.safeParse(valid));
      const got = check.safeParse(invalid);
      expect(got.success).toBe(false);
      expect(got.error?.issues).toEqual(TransactionInput.safeParse(invalid).error?.issues);
    }
  });

  it('keeps one check per schema', () => {
    expect(compiled(TransactionInput)).toBe(compiled(TransactionInput));
  });
});
