import { afterEach, describe, expect, it } from 'vitest';
import type { FaultInjector } from '../../../src/sandbox/faults.js';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { exitCodeOfRun, expectAccounted, expectNoDuplicates, linesWith } from '../../support/run-checks.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

let h: SyncHarness;
afterEach(() => h?.close());

const BANK_ACCOUNTS_FEED = 'config/feeds/demo/bank-accounts.yaml';
const BANK_ACCOUNTS_FILE = { lines: [1, 2, 3], total: '66434.56' };
const NOT_MODIFIABLE_ADVICE = "point the feed's bankAccount.externalId at a PARTNER account";
const NO_SLOT_ADVICE =
  'hide an unused bank account (visible: false), book an add-on, or target an existing account';

function account(id: number): AccountRecord {
  const found = h.sandbox.runtime.state.accounts.get(id);
  if (!found) throw new Error(`sandbox has no account ${id}`);
  return found;
}

describe('errors that stop a feed’s run, with what the operator must do', () => {
  it('BANK_ACCOUNT_NOT_MODIFIABLE before anything is sent: the target is a bank-synced (ONLINE) account', async () => {
    const source = transactionsExport({ name: 'gen-tx-online', rows: 1_500, bankAccount: 'online' });
    h = await syncHarness();
    for (const run of [await h.run(source.feedFile), await h.run(source.feedFile)]) {
      expectAccounted(run, source);
      expect(run.summary.state).toBe('stopped');
      expect(run.summary.stopReason).toMatchObject({ code: 'BANK_ACCOUNT_NOT_MODIFIABLE', exitCode: 1 });
      expect(run.summary.stopReason?.message).toContain(NOT_MODIFIABLE_ADVICE);
      expect(run.summary.counts).toMatchObject({
        created: 0,
        failed: source.externalIds.length,
        rejected: source.invalidLines.length,
      });
      expect(run.outcomes.find((o) => o.outcome === 'failed')?.message).toMatch(
        /^not sent, the run stopped: /,
      );
      expect(exitCodeOfRun(run)).toBe(1);
    }
    expect(h.requests('createTransactionsBulk')).toEqual({});
    expect(h.transactions(1001)).toHaveLength(0);
  });

  it('a dry run predicts the same stop: it checks the target as the real run does, minus the create', async () => {
    const source = transactionsExport({ name: 'gen-tx-online-dry', rows: 300, bankAccount: 'online' });
    h = await syncHarness();
    const dry = await h.run(source.feedFile, true);
    expect(dry.summary.state).toBe('stopped');
    expect(dry.summary.stopReason).toMatchObject({ code: 'BANK_ACCOUNT_NOT_MODIFIABLE', exitCode: 1 });
    expect(dry.summary.wouldSend ?? 0).toBe(0);
    expect(h.requests('createTransactionsBulk')).toEqual({});
  });

  it('BANK_ACCOUNT_NOT_MODIFIABLE mid-run (the account was taken over by another provider): the later chunks are not sent', async () => {
    const source = transactionsExport({ name: 'gen-tx-takeover', rows: 2_100 });
    h = await syncHarness();
    const faults: FaultInjector = h.sandbox.runtime.faults;
    let bulks = 0;
    h.sandbox.runtime.faults = {
      before: (request) => {
        if (request.op === 'createTransactionsBulk' && ++bulks === 2) {
          for (const bank of account(1001).bankAccounts.values())
            if (bank.externalId === 'gen-giro') bank.provider = 'ONLINE';
        }
        return faults.before(request);
      },
      afterCommit: (request) => faults.afterCommit(request),
    };
    const first = await h.run(source.feedFile);
    expectAccounted(first, source);
    expect(first.summary).toMatchObject({
      state: 'stopped',
      stopReason: { code: 'BANK_ACCOUNT_NOT_MODIFIABLE', exitCode: 1 },
    });
    expect(first.summary.counts).toMatchObject({ created: 1000, failed: source.externalIds.length - 1000 });
    expect(h.requests('createTransactionsBulk')).toEqual({ '200': 1, '409': 1 });
    expect(exitCodeOfRun(first)).toBe(1);
    expectNoDuplicates(h.transactions(1001));
    expect(h.transactions(1001)).toHaveLength(1000);

    const second = await h.run(source.feedFile);
    expectAccounted(second, source);
    expect(second.summary.stopReason?.code).toBe('BANK_ACCOUNT_NOT_MODIFIABLE');
    expect(second.summary.counts.created).toBe(0);
    expect(h.transactions(1001)).toHaveLength(1000);
  });

  it('MAX_BANK_ACCOUNTS_REACHED in a bank-accounts feed: the run stops; the account created before it stays reported created, not "not sent"', async () => {
    h = await syncHarness();
    // Account 1002 holds one PARTNER account (counts) and one ONLINE account (does not).
    account(1002).subscriptionInformation.maxAllowedBankAccounts = 2;
    for (const [i, run] of [await h.run(BANK_ACCOUNTS_FEED), await h.run(BANK_ACCOUNTS_FEED)].entries()) {
      expectAccounted(run, BANK_ACCOUNTS_FILE);
      expect(run.summary).toMatchObject({
        state: 'stopped',
        stopReason: { code: 'MAX_BANK_ACCOUNTS_REACHED', exitCode: 1 },
      });
      expect(run.summary.stopReason?.message).toContain(NO_SLOT_ADVICE);
      expect(linesWith(run, i === 0 ? 'created' : 'skipped')).toEqual([1]);
      expect(linesWith(run, 'failed')).toEqual([2, 3]);
      expect(run.outcomes.filter((o) => o.outcome === 'failed').map((o) => o.code)).toEqual([
        'MAX_BANK_ACCOUNTS_REACHED',
        'MAX_BANK_ACCOUNTS_REACHED',
      ]);
      expect(exitCodeOfRun(run)).toBe(1);
    }
    const banks = [...account(1002).bankAccounts.values()];
    expectNoDuplicates(banks);
    expect(banks.map((b) => b.externalId)).toEqual(['main', 'online', '1200']);
  });

  it('MAX_BANK_ACCOUNTS_REACHED when a transactions feed must create its target account', async () => {
    const source = transactionsExport({ name: 'gen-tx-noslot', rows: 1_500 });
    h = await syncHarness();
    account(1001).subscriptionInformation.maxAllowedBankAccounts = 1;
    const run = await h.run(source.feedFile);
    expectAccounted(run, source);
    expect(run.summary).toMatchObject({
      state: 'stopped',
      stopReason: { code: 'MAX_BANK_ACCOUNTS_REACHED' },
    });
    expect(run.summary.stopReason?.message).toContain(NO_SLOT_ADVICE);
    expect(run.summary.counts).toMatchObject({ created: 0, failed: source.externalIds.length });
    expect(exitCodeOfRun(run)).toBe(1);

    const second = await h.run(source.feedFile);
    expectAccounted(second, source);
    expect(second.summary).toMatchObject({ stopReason: { code: 'MAX_BANK_ACCOUNTS_REACHED' } });
    expect(h.requests('createTransactionsBulk')).toEqual({});
    expect(h.requests('createBankAccount')).toEqual({ '400': 2 });
  });
});

describe('preparing a transactions feed’s target account under faults', () => {
  /** Two chunks, every row sent. */
  const cleanExport = (name: string) =>
    transactionsExport({ name, rows: 1_500, invalidRows: [], excludedRows: [] });

  it('500s on listing the bank accounts beyond the retries fail the records with a report instead of aborting the run', async () => {
    const source = cleanExport('gen-tx-prep');
    h = await syncHarness({ script: [{ op: 'listBankAccounts', fault: '500', times: 4 }] });
    const first = await h.run(source.feedFile);
    expectAccounted(first, source);
    expect(first.summary.state).toBe('completed_with_errors');
    expect(first.summary.stopReason).toBeUndefined();
    expect(first.summary.counts).toMatchObject({ created: 0, failed: 1_500 });
    expect(first.summary.firstErrors[0]).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(/^not sent, the feed's target could not be prepared: /),
    });
    expect(exitCodeOfRun(first)).toBe(1);

    const second = await h.run(source.feedFile);
    expectAccounted(second, source);
    expect(second.summary.counts).toMatchObject({ created: 1_500, failed: 0 });
    expectNoDuplicates(h.transactions(1001));
  });

  it('a dropped connection after the target account was created: re-listed, not created twice', async () => {
    const source = cleanExport('gen-tx-target');
    h = await syncHarness({ script: [{ op: 'createBankAccount', fault: 'commit-then-reset' }] });
    for (const [i, run] of [await h.run(source.feedFile), await h.run(source.feedFile)].entries()) {
      expectAccounted(run, source);
      expect(run.summary.counts).toMatchObject({ [i === 0 ? 'created' : 'skipped']: 1_500, failed: 0 });
    }
    expect(h.requests('createBankAccount')).toEqual({ reset: 1 });
    const banks = [...account(1001).bankAccounts.values()];
    expectNoDuplicates(banks);
    expect(banks.filter((b) => b.externalId === 'gen-giro')).toHaveLength(1);
    expectNoDuplicates(h.transactions(1001));
  });
});

describe('bank accounts end to end under faults (the demo bank-accounts feed; creates are not de-duplicated)', () => {
  const stored = () => [...account(1002).bankAccounts.values()];

  it.each([{ fault: 'commit-then-500' as const }, { fault: 'commit-then-reset' as const }])(
    '$fault on a create: re-listed, not resent; a rerun changes nothing',
    async ({ fault }) => {
      h = await syncHarness({ script: [{ op: 'createBankAccount', fault, times: 2 }] });
      const first = await h.run(BANK_ACCOUNTS_FEED);
      expectAccounted(first, BANK_ACCOUNTS_FILE);
      expect(first.summary.counts).toMatchObject({ created: 3, failed: 0 });
      expect(h.requests('createBankAccount')).toEqual({
        [fault === 'commit-then-500' ? '500' : 'reset']: 2,
        '200': 1,
      });
      expectNoDuplicates(stored());
      expect(stored()).toHaveLength(5);

      const second = await h.run(BANK_ACCOUNTS_FEED);
      expectAccounted(second, BANK_ACCOUNTS_FILE);
      expect(second.summary.counts).toMatchObject({ created: 0, updated: 0, skipped: 3 });
      expect(stored()).toHaveLength(5);
    },
  );

  it('four 500s on a create (over the retries): the chunk fails, the run goes on, the rerun creates each once', async () => {
    h = await syncHarness({ script: [{ op: 'createBankAccount', fault: '500', times: 4 }] });
    const first = await h.run(BANK_ACCOUNTS_FEED);
    expectAccounted(first, BANK_ACCOUNTS_FILE);
    expect(first.summary.counts).toMatchObject({ created: 0, failed: 3 });
    expect(first.summary.stopReason).toBeUndefined();
    expect(exitCodeOfRun(first)).toBe(1);
    expect(stored()).toHaveLength(2);

    h.setFaults();
    const second = await h.run(BANK_ACCOUNTS_FEED);
    expectAccounted(second, BANK_ACCOUNTS_FILE);
    expect(second.summary.counts).toMatchObject({ created: 3, failed: 0 });
    expectNoDuplicates(stored());
    expect(stored()).toHaveLength(5);
  });
});
