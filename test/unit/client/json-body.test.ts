import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../../src/client/json-body.js';

/** The bytes undici sent before: JSON.stringify's text, UTF-8 encoded. */
const stringified = (value: unknown) => Buffer.from(JSON.stringify(value));

const transaction = (i: number) => ({
  externalId: `BU-${i}`,
  bookingDate: '2026-05-16',
  amount: -4190.01 - i,
  currency: 'EUR',
  // Latin-1 letters, a character above U+00FF (a two-byte string), a quote and a line break.
  purpose: i % 97 === 0 ? `Gebühr ${i} € "x"\n` : `Überweisung ${i}`,
  counterpartyName: i % 3 === 0 ? null : 'Müller & Söhne GmbH',
  categoryId: undefined,
});

describe('jsonBytes', () => {
  it('writes the bytes of JSON.stringify for a bulk create of 1000 records, slice by slice', () => {
    for (const count of [0, 1, 99, 100, 101, 250, 1000]) {
      const body = {
        bankAccountId: 10052,
        transactions: Array.from({ length: count }, (_, i) => transaction(i)),
      };
      expect(jsonBytes(body).equals(stringified(body))).toBe(true);
    }
  });

  it('writes top-level arrays, existence checks and bodies without arrays the same way', () => {
    const bodies: unknown[] = [
      Array.from({ length: 333 }, (_, i) => ({ id: i, name: `Plan ${i} — €` })),
      { bankAccountId: 1, externalIds: Array.from({ length: 1000 }, (_, i) => `BU-${i}`) },
      { name: 'Konto', iban: 'DE31500105175400001000', nested: { list: [1, 2, 3], none: undefined } },
      { skipped: undefined, fn: () => 1, list: [undefined, () => 1, Number.NaN, new Date(0)] },
      [],
      {},
    ];
    for (const body of bodies) expect(jsonBytes(body).toString()).toBe(stringified(body).toString());
  });

  it('leaves values with their own JSON form to JSON.stringify', () => {
    const own = { toJSON: () => ({ replaced: true }) };
    const list = Object.assign([1, 2], { toJSON: () => 'list' });
    for (const body of [own, { inner: list }, list, new Date(0), 'text', 42])
      expect(jsonBytes(body).equals(stringified(body))).toBe(true);
  });

  it('hands out bytes of their own: a later body does not change an earlier one', () => {
    const first = jsonBytes({ externalIds: ['a', 'b'] });
    const copy = Buffer.from(first);
    jsonBytes({ externalIds: Array.from({ length: 5000 }, (_, i) => `grown-${i}`) });
    expect(first.equals(copy)).toBe(true);
  });
});
