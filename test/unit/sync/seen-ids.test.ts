import { describe, expect, it } from 'vitest';
import type { MappedRecord } from '../../../src/sources/record.js';
import { contentHash, keyHashes, runKey, runKeyHashes, SeenIds } from '../../../src/sync/seen-ids.js';

const record = (externalId: string, file: string, line: number, amount = 1): MappedRecord => ({
  file,
  line,
  externalId,
  derivedId: false,
  payload: { externalId, amount } as unknown as MappedRecord['payload'],
});

describe('SeenIds (run-wide first sightings, compact hashes)', () => {
  it('finds every repeat among 100,000 ids across table growth, and no false one', () => {
    const seen = new SeenIds(16);
    let fresh = 0;
    for (let i = 0; i < 100_000; i++) {
      const r = record(`ID-${i}`, 'a.csv', i + 2);
      if (seen.claim(runKey('invoices', r), r) === undefined) fresh++;
    }
    expect(fresh).toBe(100_000);
    let same = 0;
    let different = 0;
    for (let i = 0; i < 100_000; i++) {
      const r = record(`ID-${i}`, 'b.csv', i + 2, i % 2 === 0 ? 1 : 2);
      const first = seen.claim(runKey('invoices', r), r);
      if (first?.file !== 'a.csv' || first.line !== i + 2) throw new Error(`ID-${i}: first sighting lost`);
      if (first.sameContent) same++;
      else different++;
    }
    expect([same, different]).toEqual([50_000, 50_000]);
    expect(seen.size).toBe(100_000);
  });

  it('lets the same line claim again (a replayed import is still the first)', () => {
    const seen = new SeenIds();
    const r = record('X', 'a.csv', 5);
    expect(seen.claim('k', r)).toBeUndefined();
    expect(seen.claim('k', r)).toBeUndefined();
    expect(seen.claim('k', record('X', 'a.csv', 6))).toMatchObject({ line: 5, sameContent: true });
  });

  it('hashes a run key without building it to the same values (the fleet keeps them in Redis)', () => {
    const routed = { ...record('BU-1', 'a.camt', 3), route: { account: 'DE31500105175400001000' } };
    for (const r of [
      record('BU-00001001', 'a.csv', 2),
      record('Ü € 😀', 'a.csv', 3),
      record('', 'a.csv', 4),
      routed,
    ])
      for (const kind of ['transactions', 'invoices'])
        expect(runKeyHashes(kind, r)).toEqual(keyHashes(runKey(kind, r)));
    const seen = new SeenIds();
    expect(seen.claimRun('transactions', routed)).toBeUndefined();
    expect(seen.claim(runKey('transactions', routed), { ...routed, line: 9 })).toMatchObject({ line: 3 });
    expect(seen.claimRun('invoices', routed)).toBeUndefined();
  });

  it('hashes are unsigned 32-bit values, the second never 0 (it marks a used slot)', () => {
    for (const key of ['', 'a', 'INV-2', 'ÄÖÜ', 'x'.repeat(300)]) {
      const [a, b] = keyHashes(key);
      expect(a).toBeGreaterThanOrEqual(0);
      expect(b).toBeGreaterThan(0);
      expect(b).toBeLessThan(2 ** 32);
    }
  });

  it('content hashes tell payloads apart as their JSON would, without building it', () => {
    const hash = (payload: Record<string, unknown>) =>
      contentHash({ ...record('X', 'a.csv', 2), payload } as unknown as MappedRecord);
    const base = {
      externalId: 'X',
      amount: 12.5,
      purpose: 'Miete',
      tags: ['a', 'b'],
      party: { iban: 'DE1' },
    };
    expect(hash({ ...base })).toBe(hash(base));
    // What JSON leaves out does not count: an undefined field.
    expect(hash({ ...base, categoryId: undefined })).toBe(hash(base));
    const variants: Record<string, unknown>[] = [
      { ...base, amount: 12.51 },
      { ...base, amount: '12.5' }, // a string is not the number
      { ...base, purpose: 'Miet' },
      { ...base, purpose: 'Miete', extra: null },
      { ...base, tags: ['ab'] }, // strings are length-tagged: ["a","b"] is not ["ab"]
      { ...base, tags: ['a', 'b', ''] },
      { ...base, party: { iban: 'DE2' } },
      { ...base, party: { bic: 'DE1' } },
      { ...base, booked: true },
      { ...base, booked: false },
    ];
    const hashes = new Set([hash(base), ...variants.map(hash)]);
    expect(hashes.size).toBe(variants.length + 1);
  });
});
