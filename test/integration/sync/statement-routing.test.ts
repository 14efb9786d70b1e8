import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  bankAccountsOf,
  CAMT,
  DE_A,
  DE_B,
  feedOf,
  GB,
  MT940,
  target,
} from '../../support/statement-feeds.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

describe('statements route to their accounts (in-process runner, sandbox)', () => {
  let h: SyncHarness;
  beforeEach(async () => {
    h = await syncHarness();
  });
  afterEach(() => h.close());

  const bankAccounts = () => bankAccountsOf(h);
  const byExternalId = (externalId: string) => bankAccounts().filter((b) => b.externalId === externalId);
  /** The externalIds of the transactions stored in one bank account, sorted. */
  const storedIn = (bankExternalId: string) => {
    const [bank] = byExternalId(bankExternalId);
    const byBank = h.sandbox.runtime.state.accounts.get(ACCOUNT)?.transactions.get(bank?.id ?? -1);
    return [...(byBank?.values() ?? [])].map((t) => t.externalId).sort();
  };

  it('MT940, an explicit map: each statement goes to its own target (an IBAN printed in groups matches)', async () => {
    const feed = feedOf(
      MT940,
      'mt940',
      `bankAccounts: {"DE89 3704 0044 0532 0130 00": ${target('giro-a')}, ${DE_B}: ${target('giro-b')}}`,
    );
    const first = await h.run(feed);
    expect(first.summary.counts).toEqual({ created: 3, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(storedIn('giro-a')).toEqual(['BR-A-1', 'BR-A-2']);
    expect(storedIn('giro-b')).toEqual(['BR-B-1']);
    const second = await h.run(feed);
    expect(second.summary.counts).toMatchObject({ created: 0, skipped: 3 });
    expect(byExternalId('giro-a')).toHaveLength(1);
    expect(byExternalId('giro-b')).toHaveLength(1);
  });

  it('camt, auto: one PARTNER account per IBAN in the statement currency, created once; a rerun creates nothing', async () => {
    const feed = feedOf(CAMT, 'camt', 'bankAccounts: auto');
    const dry = await h.run(feed, true);
    expect(bankAccounts().filter((b) => b.externalId?.startsWith('iban-'))).toHaveLength(0);
    expect(dry.summary.counts).toMatchObject({ created: 0, rejected: 0, failed: 0 });
    const first = await h.run(feed);
    expect(first.summary.counts).toEqual({ created: 3, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    const [eur] = byExternalId(`iban-${DE_A}`);
    const [usd] = byExternalId(`iban-${GB}`);
    expect(eur).toMatchObject({ provider: 'PARTNER', iban: DE_A, accountCurrency: 'EUR', accountName: DE_A });
    expect(usd).toMatchObject({ provider: 'PARTNER', iban: GB, accountCurrency: 'USD' });
    expect(storedIn(`iban-${DE_A}`)).toEqual(['AS-1', 'AS-2']);
    expect(storedIn(`iban-${GB}`)).toEqual(['AS-3']);
    const second = await h.run(feed);
    expect(second.summary.counts).toMatchObject({ created: 0, skipped: 3 });
    // A dry run after the sync predicts the skips in each statement's own account.
    const dryAgain = await h.run(feed, true);
    expect(dryAgain.summary.counts).toMatchObject({ skipped: 3 });
    expect(bankAccounts().filter((b) => b.externalId?.startsWith('iban-'))).toHaveLength(2);
  });

  it('the same bank reference in two accounts names two entries, one in each', async () => {
    const targets = `bankAccounts: {${DE_A}: ${target('giro-a')}, ${DE_B}: ${target('giro-b')}}`;
    const feed = feedOf('same-reference.sta', 'mt940', targets);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 2, updated: 0, skipped: 0, rejected: 0, failed: 0 });
    expect(storedIn('giro-a')).toEqual(['FEE-2026-03']);
    expect(storedIn('giro-b')).toEqual(['FEE-2026-03']);
    expect((await h.run(feed)).summary.counts).toMatchObject({ created: 0, skipped: 2 });
  });

  it('an account the map does not know is rejected with what to add; the others sync', async () => {
    const feed = feedOf(CAMT, 'camt', `bankAccounts: {${DE_A}: ${target('giro-a')}}`);
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 2, updated: 0, skipped: 0, rejected: 1, failed: 0 });
    const rejected = run.outcomes.find((o) => o.outcome === 'rejected');
    expect(rejected).toMatchObject({ code: 'UNKNOWN_ACCOUNT', externalId: 'AS-3' });
    expect(rejected?.message).toContain(
      `statement account "${GB}" is not in the feed's bankAccounts: add "${GB}"`,
    );
    expect(byExternalId(`iban-${GB}`)).toHaveLength(0);
  });

  it('one bankAccount naming its iban takes only its own statements; the others are rejected', async () => {
    const feed = feedOf(
      MT940,
      'mt940',
      `bankAccount: {externalId: giro-b, accountName: B, bankName: Bank, iban: "${DE_B}"}`,
    );
    const run = await h.run(feed);
    expect(run.summary.counts).toEqual({ created: 1, updated: 0, skipped: 0, rejected: 2, failed: 0 });
    for (const rejected of run.outcomes.filter((o) => o.outcome === 'rejected'))
      expect(rejected).toMatchObject({
        code: 'UNKNOWN_ACCOUNT',
        message: expect.stringContaining(
          `statement account "${DE_A}" is not the feed's bankAccount "giro-b"`,
        ),
      });
    expect(storedIn('giro-b')).toEqual(['BR-B-1']);
  });

  it('one bankAccount naming no iban or account number takes every statement, as before', async () => {
    const feed = feedOf(MT940, 'mt940', 'bankAccount: {externalId: all, accountName: All, bankName: Bank}');
    const run = await h.run(feed);
    expect(run.summary.counts).toMatchObject({ created: 3, rejected: 0 });
    expect(storedIn('all')).toEqual(['BR-A-1', 'BR-A-2', 'BR-B-1']);
  });
});

describe('statements route to their accounts: two runs at once (real time)', () => {
  let h: SyncHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('auto: two runs at once create each account once', async () => {
    // Slow listings and creates widen the window in which both runs find an account missing.
    h = await syncHarness(
      { latency: { ms: 200, jitterMs: 0, ops: ['listBankAccounts', 'createBankAccount'] } },
      { realTime: true },
    );
    const a = feedOf(CAMT, 'camt', 'bankAccounts: auto', 'routing-a');
    const b = feedOf(CAMT, 'camt', 'bankAccounts: auto', 'routing-b');
    const [first, second] = await Promise.all([h.run(a), h.run(b)]);
    expect([first.summary.stopReason, second.summary.stopReason]).toEqual([undefined, undefined]);
    expect(first.summary.counts.created + second.summary.counts.created).toBe(3);
    const accounts = [...(h.sandbox.runtime.state.accounts.get(ACCOUNT)?.bankAccounts.values() ?? [])];
    expect(accounts.filter((x) => x.externalId === `iban-${DE_A}`)).toHaveLength(1);
    expect(accounts.filter((x) => x.externalId === `iban-${GB}`)).toHaveLength(1);
    expect(h.transactions(ACCOUNT)).toHaveLength(3);
  });
});
