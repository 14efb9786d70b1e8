import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncHarness } from '../../support/sync-harness.js';

const FEED = 'config/feeds/demo/sparkasse.yaml';

describe('the demo Sparkasse CSV-CAMT export, end to end', () => {
  let h: Awaited<ReturnType<typeof syncHarness>>;
  beforeAll(async () => {
    h = await syncHarness();
  });
  afterAll(() => h.close());

  it('creates the 12 booked rows, skips the pending one with its reason, and a rerun creates nothing', async () => {
    const first = await h.run(FEED);
    expect(first.summary.counts).toEqual({ created: 12, updated: 0, skipped: 1, rejected: 0, failed: 0 });
    expect(first.outcomes).toHaveLength(13);
    expect(first.outcomes.map((o) => o.line).sort((a, b) => a - b)).toEqual(
      [...Array(13).keys()].map((i) => i + 2),
    );
    const pending = first.outcomes.find((o) => o.outcome === 'skipped');
    expect(pending).toMatchObject({
      line: 2,
      code: 'EXCLUDED',
      message: expect.stringContaining('Umsatz vorgemerkt'),
    });
    expect(first.summary.controlTotals.created.amount).toBe('1354.22');
    // The excluded pending row still counts in the totals, so they add up to the statement's own.
    expect(first.summary.controlTotals.skipped).toEqual({ records: 1, amount: '-29.99' });
    expect(first.summary.controlTotals.all).toEqual({ records: 13, amount: '1324.23' });
    expect(first.summary.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const stored = h.transactions(1001);
    expect(stored).toHaveLength(12);
    expect(new Set(stored.map((t) => t.externalId)).size).toBe(12);
    // Two-digit years read as 20yy; the trailing space the bank pads the purpose with is trimmed.
    const rent = stored.find((t) => t.counterpartyName === 'Henrike Albers');
    expect(rent).toMatchObject({
      bookingDate: '2026-02-02',
      valueDate: '2026-02-02',
      amount: -720,
      currency: 'EUR',
      purpose: 'DAUERAUFTRAG / Miete Februar Whg. 3. OG',
      counterpartyIban: 'DE46644599900005009871',
    });
    // A fee closing names no counterparty: its cells are empty, not a reason to reject it.
    expect(stored.find((t) => t.amount === -7.9)).toMatchObject({
      bookingDate: '2026-02-27',
      valueDate: '2026-02-28',
    });

    const second = await h.run(FEED);
    expect(second.summary.counts).toEqual({ created: 0, updated: 0, skipped: 13, rejected: 0, failed: 0 });
    expect(h.transactions(1001)).toHaveLength(12);
  });
});
