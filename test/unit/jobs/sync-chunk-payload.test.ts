import { describe, expect, it } from 'vitest';
import { SyncChunkHeader, SyncChunkPayload } from '../../../jobs/sync-chunk.js';

const record = {
  file: '/exports/a.csv',
  line: 2,
  externalId: 'tx-1',
  derivedId: false,
  payload: { externalId: 'tx-1', bookingDate: '2026-02-05', amount: -12.5, currency: 'EUR', purpose: 'test' },
  amount: '-12.50',
};
const settings = { mode: 'upsert', emptyCellClears: false, mappedFields: [] };
const chunk = (over: Record<string, unknown>) => ({
  runId: 'r1',
  feed: 'f',
  kind: 'transactions',
  accountId: 1001,
  seq: 1,
  records: [record],
  ...over,
});

describe("a chunk crossing a process boundary is checked by its kind, its kind's settings included", () => {
  it('takes the kind part a transactions chunk carries', () => {
    const parsed = SyncChunkPayload.parse(chunk({ settings: { ...settings, ofKind: { bankAccountId: 7 } } }));
    expect(parsed.settings.ofKind).toEqual({ bankAccountId: 7 });
    expect(
      SyncChunkHeader.parse(chunk({ settings: { ...settings, ofKind: { bankAccountId: 7 } }, records: 1 })),
    ).toMatchObject({ settings: { ofKind: { bankAccountId: 7 } } });
  });

  it.each([
    ['a key unknown to the kind', { ...settings, ofKind: { bankAccountId: 7, other: 1 } }],
    ['a kind key beside its part', { ...settings, bankAccountId: 7, ofKind: { bankAccountId: 7 } }],
    ['a wrong value', { ...settings, ofKind: { bankAccountId: 0 } }],
  ])('refuses %s', (_what, bad) => {
    expect(SyncChunkPayload.safeParse(chunk({ settings: bad })).success).toBe(false);
    expect(SyncChunkHeader.safeParse(chunk({ settings: bad, records: 1 })).success).toBe(false);
  });

  it('takes the kind keys of a chunk an earlier version queued (beside the generic settings) as its part', () => {
    const earlier = { ...settings, bankAccountId: 7, bankAccounts: 'auto' };
    expect(SyncChunkPayload.parse(chunk({ settings: earlier })).settings).toEqual({
      ...settings,
      ofKind: { bankAccountId: 7, bankAccounts: 'auto' },
    });
    expect(SyncChunkHeader.parse(chunk({ settings: earlier, records: 1 })).settings.ofKind).toEqual({
      bankAccountId: 7,
      bankAccounts: 'auto',
    });
    // Still the kind's strict schema: a key no version of the kind had is refused.
    expect(SyncChunkPayload.safeParse(chunk({ settings: { ...settings, other: 1 } })).success).toBe(false);
    expect(
      SyncChunkHeader.safeParse(
        chunk({ kind: 'invoices', settings: { ...settings, bankAccountId: 7 }, records: 1 }),
      ).success,
    ).toBe(false);
  });

  it("carries a database row's key with its record (issue 29), as text", () => {
    const keyed = { ...record, file: 'erp.bank_bookings', key: '4711' };
    const parsed = SyncChunkPayload.parse(
      chunk({ settings: { ...settings, ofKind: { bankAccountId: 7 } }, records: [keyed] }),
    );
    expect(parsed.records[0]?.key).toBe('4711');
    expect(
      SyncChunkPayload.safeParse(
        chunk({
          settings: { ...settings, ofKind: { bankAccountId: 7 } },
          records: [{ ...keyed, key: 4711 }],
        }),
      ).success,
    ).toBe(false);
  });

  it("refuses another kind's part", () => {
    const invoice = chunk({
      kind: 'invoices',
      settings: { ...settings, ofKind: { bankAccountId: 7 } },
      records: 1,
    });
    expect(SyncChunkHeader.safeParse(invoice).success).toBe(false);
  });
});
