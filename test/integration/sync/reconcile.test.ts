import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import { openRecords } from '../../../src/sources/open-records.js';
import { namedFiles } from '../../support/source-files.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';
import { tenantFeeds } from '../../support/tenant-feeds.js';

// Counts the reads of the exports (one openRecords per file and read), behaviour unchanged.
vi.mock('../../../src/sources/open-records.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/sources/open-records.js')>();
  return { ...actual, openRecords: vi.fn(actual.openRecords) };
});

let h: SyncHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A tenant provisioned and filled (bank transactions, invoices) by feeds that name it by externalId. */
async function provisioned(tag: string, transactions = 3) {
  const harness = await syncHarness();
  h = harness;
  const feeds = tenantFeeds(tag, transactions);
  for (const feed of [feeds.tenants, feeds.bank, feeds.invoices]) {
    const run = await harness.run(feed);
    expect(run.summary.counts).toMatchObject({ failed: 0, rejected: 0 });
  }
  const account = [...harness.sandbox.runtime.state.accounts.values()].find(
    (a) => a.externalId === tag,
  ) as AccountRecord;
  const bankAccount = [...account.bankAccounts.values()].find((b) => b.externalId === `${tag}-giro`);
  return { h: harness, feeds, account, bankAccountId: bankAccount?.id as number };
}

const deleteTransaction = async (harness: SyncHarness, accountId: number, externalId: string) => {
  const tx = harness.transactions(accountId).find((t) => t.externalId === externalId);
  const res = await fetch(
    `${harness.sandbox.authUrl}/_sandbox/accounts/${accountId}/transactions/${tx?.id}`,
    {
      method: 'DELETE',
    },
  );
  expect(res.status).toBe(200);
};

describe('erp-bridge reconcile (in process)', () => {
  it('reports a synced tenant equal, with both control totals', async () => {
    const { h, feeds } = await provisioned('rc-eq');
    vi.mocked(openRecords).mockClear();
    const bank = await h.reconcile(feeds.bank);
    // Every record equal: the lines come from the listing, the one export is read once.
    expect(openRecords).toHaveBeenCalledTimes(1);
    expect(bank.summary).toMatchObject({
      state: 'equal',
      counts: { equal: 3, missing: 0, different: 0, extra: 0 },
      controlTotals: { source: { records: 3, amount: '13.03' }, service: { records: 3, amount: '13.03' } },
    });
    expect(bank.summary.scope).toMatch(/^bank account "rc-eq-giro" \(id \d+\)$/);
    expect(bank.lines.map((l) => [l.line, l.externalId, l.verdict])).toEqual([
      [2, 'T-1', 'equal'],
      [3, 'T-2', 'equal'],
      [4, 'T-3', 'equal'],
    ]);
    const invoices = await h.reconcile(feeds.invoices);
    expect(invoices.summary).toMatchObject({ state: 'equal', counts: { equal: 3 } });
    expect(invoices.summary.controlTotals).toEqual({
      source: { records: 3, amount: '25585' },
      service: { records: 3, amount: '25585' },
    });
    // Read-only: nothing was written by either reconcile.
    expect(h.requests('createTransactionsBulk')).toEqual({ 200: 1 });
    expect(h.requests('updateInvoice')).toEqual({});
  });

  it('names a deleted transaction, an edited invoice and an extra; --repair syncs only those and they are equal again', async () => {
    const { h, feeds, account, bankAccountId } = await provisioned('rc-diff');
    await deleteTransaction(h, account.id, 'T-2');
    const [inv2] = await h.client.lookupInvoicesByExternalIds(account.id, 'SALE', ['INV-2']);
    await h.client.updateInvoice(account.id, inv2?.id as number, 'SALE', {
      openAmount: 100,
      note: 'paid in part',
    });
    await h.client.createTransactionsBulk(account.id, bankAccountId, [
      { externalId: 'ONLY-IN-SERVICE', bookingDate: '2026-02-27', amount: -5, currency: 'EUR' },
    ]);

    const bank = await h.reconcile(feeds.bank);
    expect(bank.summary).toMatchObject({ state: 'differences', counts: { equal: 2, missing: 1, extra: 1 } });
    expect(bank.lines.filter((l) => l.verdict !== 'equal')).toEqual([
      {
        verdict: 'extra',
        externalId: 'ONLY-IN-SERVICE',
        serviceId: expect.any(Number),
        amount: '-5',
        message: 'in the service, not in the exports',
      },
      {
        verdict: 'missing',
        file: expect.stringMatching(/bank\.csv$/),
        line: 3,
        externalId: 'T-2',
        amount: '11.01',
      },
    ]);
    const invoices = await h.reconcile(feeds.invoices);
    expect(invoices.summary).toMatchObject({ state: 'differences', counts: { equal: 2, different: 1 } });
    // The note is not mapped by the feed: not compared.
    expect(invoices.summary.firstDifferences).toEqual([
      expect.objectContaining({
        verdict: 'different',
        line: 3,
        externalId: 'INV-2',
        fields: [{ field: 'openAmount', source: 595, service: 100 }],
      }),
    ]);

    const creates = h.requests('createTransactionsBulk')[200] ?? 0;
    for (const [feed, found] of [
      [feeds.bank, bank],
      [feeds.invoices, invoices],
    ] as const) {
      const repair = await h.run(feed, false, undefined, { onlyLines: found.repair });
      expect(repair.outcomes).toHaveLength(1);
      expect(repair.summary.counts).toMatchObject({ failed: 0, rejected: 0 });
    }
    expect(h.requests('createTransactionsBulk')[200]).toBe(creates + 1);
    expect(h.requests('updateInvoice')).toEqual({ 200: 2 });
    expect((await h.reconcile(feeds.bank)).summary).toMatchObject({
      state: 'equal',
      counts: { equal: 3, missing: 0, extra: 1 },
    });
    expect((await h.reconcile(feeds.invoices)).summary).toMatchObject({
      state: 'equal',
      counts: { equal: 3 },
    });
  });

  it('pages through a large bank account at the largest page size; a repeat in the exports is a duplicate, not a second record', async () => {
    const { h, feeds, account } = await provisioned('rc-big', 2_500);
    await deleteTransaction(h, account.id, 'T-2000');
    appendFileSync(join(feeds.dir, 'bank.csv'), 'T-5;2026-02-05;14.04;Payment 5 again;Counterparty 4\n');
    const before = h.requests('listTransactions')[200] ?? 0;
    const bank = await h.reconcile(feeds.bank);
    expect(h.requests('listTransactions')[200]).toBe(before + 3);
    expect(bank.summary.counts).toMatchObject({ equal: 2_499, missing: 1, extra: 0, duplicate: 1 });
    expect(bank.summary.controlTotals.source.records).toBe(2_500);
    expect(bank.summary.controlTotals.service.records).toBe(2_499);
    expect(bank.lines.find((l) => l.verdict === 'missing')?.externalId).toBe('T-2000');
    expect(bank.lines.find((l) => l.verdict === 'duplicate')).toMatchObject({
      line: 2_502,
      externalId: 'T-5',
    });
  });

  it('500s and 429s during the listing and the lookups are retried per the spec: the same verdicts', async () => {
    const { h, feeds, account } = await provisioned('rc-flt', 1_200);
    await deleteTransaction(h, account.id, 'T-7');
    // In order: the listing's first page fails twice, then is rate-limited; the first invoice
    // lookup is rate-limited, then fails three times (the last retry the spec allows answers).
    h.setFaults({
      script: [
        { op: 'listTransactions', fault: '500', times: 2 },
        { op: 'listTransactions', fault: '429', retryAfterSeconds: 2 },
        { op: 'listInvoices', fault: '429' },
        { op: 'listInvoices', fault: '500', times: 3 },
      ],
    });
    const bank = await h.reconcile(feeds.bank);
    const invoices = await h.reconcile(feeds.invoices);
    expect(bank.summary.counts).toMatchObject({ equal: 1_199, missing: 1, extra: 0 });
    expect(invoices.summary.counts).toMatchObject({ equal: 3, missing: 0 });
    expect(h.requests('listTransactions')).toMatchObject({ 500: 2, 429: 1 });
    expect(h.requests('listInvoices')).toMatchObject({ 500: 3, 429: 1 });
    // The 429's Retry-After was waited for before the page was asked again.
    const waited = h.events.find((e) => e.kind === '429' && e.operation === 'listTransactions');
    const next = h.events.find(
      (e) => e.kind === 'request' && e.operation === 'listTransactions' && e.at > (waited?.at ?? 0),
    );
    expect((next?.at ?? 0) - (waited?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
  });

  it("reconciles a tenant's users and bank accounts; the admin its account came with is an extra", async () => {
    const { h } = await provisioned('rc-dir');
    const { write } = namedFiles('rc-dir');
    write('users.csv', ['id;email;first;last', 'u-1;u1@rc-dir.test;Uma;One', 'u-2;u2@rc-dir.test;Udo;Two']);
    write('banks.csv', ['id;name;bank', 'rc-dir-giro;Giro;Testbank', 'rc-dir-savings;Savings;Testbank']);
    const users = write('users.yaml', [
      'name: rc-dir-users',
      'accountExternalId: rc-dir',
      'kind: users',
      'source: {path: users.csv, format: csv, delimiter: ";"}',
      'mapping: {externalId: id, email: email, firstName: first, lastName: last}',
    ]);
    const banks = write('banks.yaml', [
      'name: rc-dir-banks',
      'accountExternalId: rc-dir',
      'kind: bank-accounts',
      'source: {path: banks.csv, format: csv, delimiter: ";"}',
      'mapping: {externalId: id, accountName: name, bankName: bank}',
    ]);
    expect((await h.reconcile(users)).summary.counts).toMatchObject({ missing: 2, extra: 1 });
    await h.run(users);
    const reconciled = await h.reconcile(users);
    expect(reconciled.summary).toMatchObject({ state: 'equal', counts: { equal: 2, extra: 1 } });
    expect(reconciled.lines.find((l) => l.verdict === 'extra')?.externalId).toBe('boss');
    const bankAccounts = await h.reconcile(banks);
    expect(bankAccounts.summary).toMatchObject({
      state: 'differences',
      counts: { equal: 1, missing: 1, extra: 0 },
    });
    expect(bankAccounts.summary.firstDifferences.map((l) => l.externalId)).toEqual(['rc-dir-savings']);
  });

  it('reconciles a category tree by path (categories have no externalId): a changed type is named', async () => {
    const { h, account } = await provisioned('rc-cat');
    const { write } = namedFiles('rc-cat');
    write('categories.csv', [
      'path;type',
      'Revenue / Consulting;INCOME_OPERATIONAL',
      'Revenue;INCOME_OPERATIONAL',
      'Office;EXPENSE_OPERATIONAL',
    ]);
    const feed = write('categories.yaml', [
      'name: rc-cat-categories',
      'accountExternalId: rc-cat',
      'kind: categories',
      'source: {path: categories.csv, format: csv, delimiter: ";"}',
      'mapping: {path: path, type: type}',
    ]);
    const held = () => [...account.categories.values()];
    await h.run(feed);
    // The account's other categories (the service's defaults) are extras: the export names 3.
    expect((await h.reconcile(feed)).summary).toMatchObject({
      state: 'equal',
      counts: { equal: 3, extra: held().length - 3 },
    });
    const office = held().find((c) => c.name === 'Office');
    if (office) office.type = 'EXPENSE_INVESTMENT';
    const changed = await h.reconcile(feed);
    expect(changed.summary.counts).toMatchObject({ equal: 2, different: 1 });
    expect(changed.summary.firstDifferences).toEqual([
      expect.objectContaining({
        line: 4,
        fields: [{ field: 'type', source: 'EXPENSE_OPERATIONAL', service: 'EXPENSE_INVESTMENT' }],
      }),
    ]);
  });

  it('a target bank account not in the service is an empty scope (nothing created); an invalid row is named, not compared', async () => {
    h = await syncHarness();
    const feeds = tenantFeeds('rc-new');
    await h.run(feeds.tenants);
    appendFileSync(join(feeds.dir, 'bank.csv'), 'T-9;not a date;1.00;Bad;Row\n');
    const before = await h.reconcile(feeds.bank);
    expect(before.summary).toMatchObject({
      state: 'differences',
      scope: 'bank account "rc-new-giro" (not in the service)',
      counts: { missing: 3, rejected: 1, equal: 0 },
      controlTotals: { service: { records: 0 } },
    });
    expect(h.requests('createBankAccount')).toEqual({});
    expect(before.lines.find((l) => l.verdict === 'rejected')).toMatchObject({
      line: 5,
      message: expect.stringMatching(/^not compared, the row is invalid: /),
    });
    await h.run(feeds.bank, false, undefined, { onlyLines: before.repair });
    // The invalid row stays invalid, and is no difference: the service holds what the export can say.
    expect((await h.reconcile(feeds.bank)).summary).toMatchObject({
      state: 'equal',
      counts: { equal: 3, rejected: 1 },
    });
  });

  it('a listing that keeps failing stops the reconcile (exit 1), never a verdict', async () => {
    const { h, feeds } = await provisioned('rc-down');
    h.setFaults({ fail500: { rate: 1, ops: ['listTransactions'] } });
    const bank = await h.reconcile(feeds.bank);
    expect(bank.summary.state).toBe('stopped');
    expect(bank.summary.stopReason).toMatchObject({ exitCode: 1 });
    expect(bank.summary.stopReason?.message).toContain('the service failed while being read');
  });
});
