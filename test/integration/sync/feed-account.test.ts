import { afterEach, describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';
import { tenantFeeds } from '../../support/tenant-feeds.js';

let h: SyncHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const accountOf = (accounts: Iterable<AccountRecord>, externalId: string): AccountRecord => {
  const found = [...accounts].filter((a) => a.externalId === externalId);
  expect(found, `account ${externalId}`).toHaveLength(1);
  return found[0] as AccountRecord;
};

describe('feed-level accountExternalId (in process)', () => {
  it('an unknown account stops the run before anything is sent; once provisioned, the feed syncs into it', async () => {
    h = await syncHarness();
    // One more transaction than a chunk holds: the bank feed runs two chunks (see the last check).
    const rows = 1001;
    const feeds = tenantFeeds('fa', rows);
    // A dry run of the sync that will provision it cannot stop here: every record would be sent.
    const dry = await h.run(feeds.bank, true);
    expect(dry.summary.state).not.toBe('stopped');
    expect(dry.summary.wouldSend).toBe(rows);
    expect(h.requests('listBankAccounts')).toEqual({});
    const early = await h.run(feeds.bank);
    expect(early.summary.state).toBe('stopped');
    expect(early.summary.stopReason).toMatchObject({ code: 'ACCOUNT_NOT_FOUND', exitCode: 2 });
    expect(early.summary.stopReason?.message).toContain('accountExternalId "fa" names no customer account');
    expect(early.summary.counts).toMatchObject({ created: 0, failed: rows });
    expect(h.requests('createBankAccount')).toEqual({});
    expect(h.requests('listAccounts')).toEqual({ 200: 2 });

    await h.run(feeds.tenants);
    const account = accountOf(h.sandbox.runtime.state.accounts.values(), 'fa');
    const bank = await h.run(feeds.bank);
    expect(bank.summary.counts).toMatchObject({ created: rows, failed: 0, rejected: 0 });
    expect(bank.summary.accountId).toBe(account.id);
    expect(
      h
        .transactions(account.id)
        .map((t) => t.externalId)
        .sort(),
    ).toEqual(Array.from({ length: rows }, (_, i) => `T-${i + 1}`).sort());
    const invoices = await h.run(feeds.invoices);
    expect(invoices.summary.counts).toMatchObject({ created: 3, failed: 0, rejected: 0 });
    expect((await h.stored(account.id, 'invoices')).map((i) => i.externalId).sort()).toEqual([
      'INV-1',
      'INV-2',
      'INV-3',
    ]);
    // The accounts are listed once per run, not per chunk (the bank feed's run had two).
    expect(h.requests('listAccounts')).toEqual({ 200: 5 });
  });

  it('a listing that keeps failing stops the run (exit 1) without sending anything', async () => {
    h = await syncHarness();
    const feeds = tenantFeeds('fb');
    await h.run(feeds.tenants);
    h.setFaults({ fail500: { rate: 1, ops: ['listAccounts'] } });
    const run = await h.run(feeds.bank);
    expect(run.summary.stopReason).toMatchObject({ exitCode: 1 });
    expect(run.summary.stopReason?.message).toContain("could not list the partner's accounts");
    expect(h.requests('createBankAccount')).toEqual({});
  });
});

describe('feed-level accountExternalId (fleet)', () => {
  const world = fleetTestWorld();

  it("the import job resolves the tenant's id; the chunks write there", async () => {
    const feeds = tenantFeeds('fleetfa');
    const fleet = world.start();
    fleet.worker(2);
    const summaries = [];
    for (const feed of [feeds.tenants, feeds.bank]) {
      const [run] = await fleet.enqueue(feed);
      const summary = await fleet.finished(String(run?.runId));
      expect(summary.counts).toMatchObject({ failed: 0, rejected: 0 });
      summaries.push(summary);
    }
    const account = accountOf(world.sandbox().runtime.state.accounts.values(), 'fleetfa');
    // The summary and the run record (`runs`) name the tenant, not the producer's 0.
    const bankRun = summaries[1];
    expect(bankRun?.accountId).toBe(account.id);
    expect((await fleet.store.meta(String(bankRun?.runId)))?.accountId).toBe(account.id);
    const stored = [...account.transactions.values()].flatMap((byId) => [...byId.values()]);
    expect(stored.map((t) => t.externalId).sort()).toEqual(['T-1', 'T-2', 'T-3']);
  });
});
