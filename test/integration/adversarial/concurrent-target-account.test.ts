import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

let h: SyncHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A transactions feed of account 1001 writing to the (new) target bank account `target`. */
function transactionsFeed(name: string, target: string, rows: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-target-'));
  writeFileSync(join(dir, 'export.csv'), `id;date;amount\n${rows.join('\n')}\n`);
  writeFileSync(
    join(dir, 'feed.yaml'),
    [
      `name: ${name}`,
      'accountId: 1001',
      'kind: transactions',
      'source: { path: "export.csv", format: csv, delimiter: ";" }',
      'mapping: { externalId: id, bookingDate: date, amount: amount }',
      `bankAccount: { externalId: ${target}, accountName: Shared target, bankName: Testbank }`,
    ].join('\n'),
  );
  return join(dir, 'feed.yaml');
}

/**
 * Issue 18 point 1, the transactions feed's target: two feeds of one account that name the same new
 * target bank account start at once. Both listed the accounts, both found none, both created one
 * (the service does not de-duplicate bank accounts), and every later run stopped AMBIGUOUS_TARGET.
 */
describe('issue 18 case 2: two runs creating the same target bank account', () => {
  it('two runs at once in one process create the target bank account once', async () => {
    // Slow listings and creates widen the window in which both runs find the target missing.
    h = await syncHarness(
      { latency: { ms: 200, jitterMs: 0, ops: ['listBankAccounts', 'createBankAccount'] } },
      { realTime: true },
    );
    const a = transactionsFeed('target-a', 'shared-target', ['A-1;2026-03-01;10.00', 'A-2;2026-03-02;20.00']);
    const b = transactionsFeed('target-b', 'shared-target', ['B-1;2026-03-01;30.00']);
    const [first, second] = await Promise.all([h.run(a), h.run(b)]);
    expect([first.summary.stopReason, second.summary.stopReason]).toEqual([undefined, undefined]);
    expect([first.summary.counts.created, second.summary.counts.created]).toEqual([2, 1]);
    const account = h.sandbox.runtime.state.accounts.get(1001);
    const targets = [...(account?.bankAccounts.values() ?? [])].filter(
      (b) => b.externalId === 'shared-target',
    );
    expect(targets).toHaveLength(1);
    expect(h.transactions(1001).filter((t) => /^[AB]-/.test(t.externalId ?? ''))).toHaveLength(3);
  });
});
