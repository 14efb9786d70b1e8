import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syncHarness } from '../../support/sync-harness.js';

const ACCOUNT = 1001;
const FEED = 'config/feeds/demo/mt940.yaml';

describe('the demo MT940 feed (five Volksbank-style statements), end to end (in-process runner, sandbox)', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  it('outcomes at the lines of their :61:, as the service stores them; the newest closing balance set; a rerun creates nothing', async () => {
    const run = await h.run(FEED);
    expect(run.summary.counts).toEqual({ created: 9, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(run.outcomes.map((o) => o.line)).toEqual([5, 10, 22, 33, 38, 42, 53, 57, 68]);
    expect(run.summary.controlTotals.created.amount).toBe('161.1');
    // Every statement adds up; the last one's closing balance, from the day after it.
    expect(run.summary.files[0]?.statements).toMatchObject({
      count: 5,
      balances: [{ outcome: 'updated', balanceDate: '2026-02-19', balanceReference: '4281.60' }],
    });
    expect(run.summary.files[0]?.statements?.warnings ?? []).toEqual([]);
    // ?2x subfields are joined as they stand: the bank split a word and the IBAN across them.
    const trip = h.transactions(ACCOUNT).find((t) => t.amount === 120);
    expect(trip).toMatchObject({
      bookingDate: '2026-02-09',
      valueDate: '2026-02-09',
      currency: 'EUR',
      purpose: 'Beitrag Chorfahrt Salzburg fuer Hanna und Ben IBAN: DE51520999550002208811 BIC: GENODEF1WBN',
      counterpartyName: 'sabine und tom hartwig',
      counterpartyIban: 'DE51520999550002208811',
      externalId: expect.stringMatching(/^erpb2-/),
    });
    // A subfield broken over two physical lines (MREF+NV- / 0044) and a debit.
    expect(h.transactions(ACCOUNT).find((t) => t.amount === -38.9)).toMatchObject({
      bookingDate: '2026-02-10',
      counterpartyName: 'Notenverlag Amsel GmbH',
      purpose: expect.stringContaining('Notenmaterial Abo Februar'),
    });
    expect((await h.run(FEED)).summary.counts).toMatchObject({ created: 0, skipped: 9 });
    expect(h.transactions(ACCOUNT)).toHaveLength(9);
  });
});
