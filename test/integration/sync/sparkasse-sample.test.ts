import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncHarness } from '../../support/sync-harness.js';

const FEED = 'config/feeds/demo/sparkasse.yaml';

describe('the real Sparkasse CSV-CAMT sample, end to end', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeAll(async () => {
    h = await syncHarness();
  });
  afterAll(() => h.close());

  it('creates the 17 booked rows, skips the pending one with its reason, and a rerun creates nothing', async () => {
    const first = await h.run(FEED);
    expect(first.summary.counts).toEqual({ created: 17, updated: 0, skipped: 1, rejected: 0, failed: 0 });
    expect(first.outcomes).toHaveLength(18);
    expect(first.outcomes.map((o) => o.line).sort((a, b) => a - b)).toEqual(
      [...Array(18).keys()].map((i) => i + 2),
    );
    const pending = first.outcomes.find((o) => o.outcome === 'skipped');
    expect(pending).toMatchObject({
      line: 2,
      code: 'EXCLUDED',
      message: expect.stringContaining('Umsatz vorgemerkt'),
    });
    expect(first.summary.controlTotals.created.amount).toBe('129.76');
    // The excluded pending row still counts in the totals, so they add up to the statement's own.
    expect(first.summary.controlTotals.skipped).toEqual({ records: 1, amount: '-22.59' });
    expect(first.summary.controlTotals.all).toEqual({ records: 18, amount: '107.17' });
    expect(first.summary.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const stored = h.transactions(1001);
    expect(stored).toHaveLength(17);
    expect(new Set(stored.map((t) => t.externalId)).size).toBe(17);
    const rent = stored.find((t) => t.counterpartyName === 'Mirko Siemens');
    expect(rent).toMatchObject({
      bookingDate: '2018-04-03',
      amount: -165,
      currency: 'EUR',
      purpose: 'DAUERAUFTRAG / Miete',
    });

    const second = await h.run(FEED);
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 18, rejected: 0, failed: 0 });
    expect(h.transactions(1001)).toHaveLength(17);
  });
});
