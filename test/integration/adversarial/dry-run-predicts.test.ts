import { afterEach, describe, expect, it } from 'vitest';
import { invoicesExport, transactionsExport } from '../../support/generated-exports.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

let h: SyncHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Issue 18 item 12: `--dry-run` never checked what exists, so after a full sync it still predicted every record as sent. */
describe('issue 18 item 12: --dry-run checks what the service holds', () => {
  it('item 12 (dry run): after a full transactions sync, predicts skips and nothing to send, and writes nothing', async () => {
    const source = transactionsExport({ name: 'adv-dry-tx', rows: 1_200 });
    h = await syncHarness();
    const full = await h.run(source.feedFile);
    expect(full.summary.counts.created).toBe(source.externalIds.length);
    const writes = h.requests('createTransactionsBulk');

    const dry = await h.run(source.feedFile, true);
    expect(dry.summary.wouldSend).toBe(0);
    expect(dry.summary.counts).toMatchObject({
      skipped: source.externalIds.length + source.excludedLines.length,
      created: 0,
    });
    expect(dry.outcomes.find((o) => o.externalId === source.externalIds[0])?.message).toMatch(/dry run/);
    // Nothing was written by the dry run.
    expect(h.requests('createTransactionsBulk')).toEqual(writes);
  });

  it('item 12 (dry run): before any sync everything would be sent; after a full invoices sync, nothing', async () => {
    const source = invoicesExport({ name: 'adv-dry-inv', rows: 300, invalidRows: [] });
    h = await syncHarness();
    const before = await h.run(source.feedFile, true);
    expect(before.summary.wouldSend).toBe(300);
    await h.run(source.feedFile);
    const after = await h.run(source.feedFile, true);
    expect(after.summary.wouldSend).toBe(0);
    expect(after.summary.counts).toMatchObject({ skipped: 300 });
  });
});
