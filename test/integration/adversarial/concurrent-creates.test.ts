import { afterEach, describe, expect, it } from 'vitest';
import { expectNoDuplicates } from '../../support/run-checks.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';
import { invoiceLine, invoicesFeed } from './duplicate-feeds.js';

let h: SyncHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Issue 18 case 2, across runs: two runs (two feeds of one account, or the same file scheduled
 * twice) syncing the same invoice externalIds at the same time. Each run's lookup found them
 * missing and each created them. Creates of one (account, externalId) are now serialised.
 */
describe('issue 18 case 2: concurrent runs creating the same invoices', () => {
  it('case 2 (concurrent runs): two runs at once in one process create each invoice once', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => invoiceLine(`CINV-${i + 1}`, i + 1));
    const a = invoicesFeed({ 'a.jsonl': lines }, 'a.jsonl', 2);
    const b = invoicesFeed({ 'b.jsonl': lines }, 'b.jsonl', 2);
    // Slow lookups and creates widen the window in which both runs find the invoices missing.
    h = await syncHarness(
      { latency: { ms: 150, jitterMs: 0, ops: ['listInvoices', 'createInvoicesBulk'] } },
      { realTime: true },
    );
    const [first, second] = await Promise.all([h.run(a), h.run(b)]);
    const counts = [first.summary.counts, second.summary.counts];
    expect(counts.map((c) => c.created + c.skipped)).toEqual([300, 300]);
    expect(counts.map((c) => c.failed)).toEqual([0, 0]);
    // Each invoice is created by exactly one of the runs; the other finds it and skips it.
    expect(counts.reduce((sum, c) => sum + c.created, 0)).toBe(300);
    const stored = await h.stored(1001, 'invoices');
    expectNoDuplicates(stored);
    expect(stored.filter((i) => i.externalId?.startsWith('CINV-'))).toHaveLength(300);
  });
});
