import { describe, expect, it } from 'vitest';
import { KINDS, RECORD_KINDS } from '../../../src/kinds/registry.js';
import {
  canonicalText,
  DerivedIds,
  identityContent,
  NON_ASCII_PLACEHOLDER as X,
} from '../../../src/sources/identity.js';

const windows1252 = (text: string) => new TextDecoder('windows-1252').decode(Buffer.from(text, 'utf8'));
const utf8OfLatin1 = (text: string) => new TextDecoder('utf-8').decode(Buffer.from(text, 'latin1'));

describe('canonicalText', () => {
  it.each([
    ['  EDEKA   Filiale\t12 ', 'EDEKA Filiale 12'],
    ['line\r\nbreak', 'line break'],
    ['Kantine', 'Kantine'],
    ['', ''],
    ['   ', ''],
    ['MiXeD Case', 'MiXeD Case'],
  ])('collapses whitespace and keeps case: %j -> %j', (text, canonical) => {
    expect(canonicalText(text)).toBe(canonical);
  });

  it.each(['EDEKA Dübel', 'Straße 5', 'Jörg Weiß', 'Ärger über Öl', 'Café №1 — € 5'])(
    'reads %j the same decoded right, as windows-1252 mojibake, and as UTF-8 with U+FFFD',
    (text) => {
      const right = canonicalText(text);
      expect(canonicalText(windows1252(text))).toBe(right);
      if ([...text].every((c) => c.charCodeAt(0) < 0x100))
        expect(canonicalText(utf8OfLatin1(text))).toBe(right);
      expect(right).toContain(X);
    },
  );

  it('folds each run of non-ASCII characters to one placeholder, after NFC', () => {
    expect(canonicalText('Dübel')).toBe(`D${X}bel`);
    expect(canonicalText('Du\u0308bel')).toBe(`D${X}bel`);
    expect(canonicalText('Ärger über')).toBe(`${X}rger ${X}ber`);
  });
});

describe('identityContent', () => {
  const fields = KINDS.transactions.identityFields;
  const at = (values: Record<string, { value: string | number; decimal?: string; parts?: string[] }>) =>
    fields.map((f) => values[f]);

  it('uses the parts of a join, not the separator, and exact decimals', () => {
    const slash = identityContent(
      'transactions',
      fields,
      at({ purpose: { value: 'A / B', parts: ['A', 'B'] }, amount: { value: -1234.5, decimal: '-1234.5' } }),
    );
    const space = identityContent(
      'transactions',
      fields,
      at({ purpose: { value: 'A B', parts: ['A', ' B '] }, amount: { value: -1234.5, decimal: '-1234.5' } }),
    );
    expect(slash).toBe(space);
    const joined = identityContent('transactions', fields, at({ purpose: { value: 'A B' } }));
    expect(joined).not.toBe(
      identityContent('transactions', fields, at({ purpose: { value: 'A', parts: ['A'] } })),
    );
  });

  it('tells a changed amount, date or text apart', () => {
    const base = { bookingDate: { value: '2018-04-03' }, amount: { value: -3, decimal: '-3' } };
    const of = (v: Record<string, { value: string | number; decimal?: string }>) =>
      identityContent('transactions', fields, at({ ...base, ...v }));
    const contents = new Set([
      of({}),
      of({ amount: { value: -3.01, decimal: '-3.01' } }),
      of({ bookingDate: { value: '2018-04-04' } }),
      of({ purpose: { value: 'Kantine' } }),
      of({ purpose: { value: 'Kantina' } }),
    ]);
    expect(contents.size).toBe(5);
  });

  it('identity fields are listed in sorted order (the content is independent of mapping order)', () => {
    for (const kind of RECORD_KINDS)
      expect([...KINDS[kind].identityFields]).toEqual([...KINDS[kind].identityFields].sort());
  });
});

describe('DerivedIds', () => {
  it('numbers identical contents by occurrence; scheme 1 keeps its old IDs', () => {
    const v2 = new DerivedIds(2);
    const [a, b, c] = [v2.next('x'), v2.next('x'), v2.next('y')];
    expect(a).toMatch(/^erpb2-[\w-]{22}-1$/);
    expect(b).toBe(a?.replace(/-1$/, '-2'));
    expect(c).toMatch(/-1$/);
    // Version 1 exactly as before 2026-11: sha256 base64url, 22 characters.
    expect(new DerivedIds(1).next('transactions\u0000{}')).toBe('erpb-Wk1yHl4_BTHUyKOzZ3r2uG-1');
  });
});
