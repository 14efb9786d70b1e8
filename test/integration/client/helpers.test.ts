import { afterEach, describe, expect, it } from 'vitest';
import { API_PATH, type Fixture, page, rejection, startFixture } from '../../support/client-fixture.js';

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

const ids = (n: number) => Array.from({ length: n }, (_, i) => `ext-${i}`);
const tx = (externalId: string) => ({ externalId, bookingDate: '2030-01-01', amount: 1 });
const invoice = (id: number, externalId: string) => ({
  id,
  externalId,
  invoiceType: 'SALES_INVOICE',
  invoiceNumber: `R-${id}`,
  contactName: 'Kunde',
  totalGrossAmount: 119,
});
const invoiceBody = (externalId: string) => ({
  externalId,
  invoiceType: 'SALES_INVOICE' as const,
  invoiceNumber: externalId,
  contactName: 'Kunde',
  totalGrossAmount: 1,
});
const plan = {
  amount: -100,
  period: 'MONTHLY' as const,
  date: '2030-01-01',
  type: 'ONE_TIME' as const,
  name: 'Rent',
};

describe('limits are enforced before sending', () => {
  it.each([
    [
      'createTransactionsBulk 1001',
      (fx: Fixture) => fx.client.createTransactionsBulk(1, 5, ids(1001).map(tx)),
      'BULK_LIMIT_EXCEEDED',
    ],
    ['createTransactionsBulk 0', (fx: Fixture) => fx.client.createTransactionsBulk(1, 5, []), 'EMPTY_BULK'],
    [
      'createInvoicesBulk 1001',
      (fx: Fixture) => fx.client.createInvoicesBulk(1, ids(1001).map(invoiceBody)),
      'BULK_LIMIT_EXCEEDED',
    ],
    ['createInvoicesBulk 0', (fx: Fixture) => fx.client.createInvoicesBulk(1, []), 'EMPTY_BULK'],
    [
      'createPlansBulk 1001',
      (fx: Fixture) => fx.client.createPlansBulk(1, Array(1001).fill(plan)),
      'BULK_LIMIT_EXCEEDED',
    ],
    ['createPlansBulk 0', (fx: Fixture) => fx.client.createPlansBulk(1, []), 'EMPTY_BULK'],
    [
      'checkTransactionsExist 1001',
      (fx: Fixture) => fx.client.checkTransactionsExist(1, 5, ids(1001)),
      'BULK_LIMIT_EXCEEDED',
    ],
    ['checkTransactionsExist 0', (fx: Fixture) => fx.client.checkTransactionsExist(1, 5, []), 'EMPTY_BULK'],
    [
      'lookupInvoicesByExternalIds with a 256-character ID',
      (fx: Fixture) => fx.client.lookupInvoicesByExternalIds(1, 'SALE', [...ids(150), 'x'.repeat(256)]),
      'INVALID_EXTERNAL_ID',
    ],
  ])('%s is refused with no request at all', async (_name, send, code) => {
    fx = await startFixture();
    const error = await rejection(send(fx));
    expect(error).toMatchObject({ kind: 'refused', code, accountId: 1, status: undefined });
    expect(fx.server.requests).toHaveLength(0);
  });

  it('sends exactly 1000 items', async () => {
    fx = await startFixture();
    fx.server.always('POST', `${API_PATH}/bank-account-transactions/bulk`, (request) => {
      const body = JSON.parse(request.body) as { transactions: unknown[] };
      return {
        json: {
          success: true,
          message: 'ok',
          createdCount: body.transactions.length,
          created: [],
          failedCount: 0,
          errors: [],
          skippedCount: 0,
          skipped: [],
        },
      };
    });
    const result = await fx.client.createTransactionsBulk(1, 5, ids(1000).map(tx));
    expect(result.createdCount).toBe(1000);
    expect(JSON.parse(fx.apiRequests()[0]?.body ?? '')).toMatchObject({ bankAccountId: 5 });
  });
});

describe('lookupInvoicesByExternalIds', () => {
  it('splits 250 IDs into requests of at most 100 and fetches every page of each', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/invoices`, (request) => {
      const wanted = request.query.getAll('externalId');
      const n = Number(request.query.get('page'));
      // The first group answers in two pages, to prove each request's pages are all fetched.
      const pages = wanted[0] === 'ext-0' ? [wanted.slice(0, 60), wanted.slice(60)] : [wanted];
      const data = (pages[n] ?? []).map((id) => invoice(Number(id.slice(4)), id));
      return { json: page(data, n, pages.length, wanted.length) };
    });
    const found = await fx.client.lookupInvoicesByExternalIds(3, 'SALE', ids(250));
    expect(found.map((i) => i.externalId)).toEqual(ids(250));
    const requests = fx.apiRequests();
    expect(requests.map((r) => [r.query.getAll('externalId').length, r.query.get('page')])).toEqual([
      [100, '0'],
      [100, '1'],
      [100, '0'],
      [50, '0'],
    ]);
    for (const r of requests) {
      expect(r.query.get('invoiceTypeFilter')).toBe('SALE');
      expect(r.query.get('pageSize')).toBe('1000');
      expect(r.headers['x-account-id']).toBe('3');
    }
  });

  it('sends nothing for no IDs', async () => {
    fx = await startFixture();
    await expect(fx.client.lookupInvoicesByExternalIds(3, 'PURCHASE', [])).resolves.toEqual([]);
    expect(fx.server.requests).toHaveLength(0);
  });
});

describe('the other helpers', () => {
  it('checkTransactionsExist sends the IDs and normalises both answer shapes', async () => {
    fx = await startFixture();
    fx.server.always('POST', `${API_PATH}/bank-account-transactions/exists`, {
      json: {
        success: true,
        data: ['a', { externalId: 'b', exists: true, id: 12 }, { externalId: 'c', exists: false }],
      },
    });
    await expect(fx.client.checkTransactionsExist(1, 5, ['a', 'b', 'c'])).resolves.toEqual([
      { externalId: 'a' },
      { externalId: 'b', transactionId: 12 },
    ]);
    expect(JSON.parse(fx.apiRequests()[0]?.body ?? '')).toEqual({
      bankAccountId: 5,
      externalIds: ['a', 'b', 'c'],
    });
  });

  it('getTransaction GETs /bank-account-transactions/{id} with the tenant and returns the transaction', async () => {
    fx = await startFixture();
    const held = { id: 7, externalId: 'R-1/#1', amount: -4.25, bookingDate: '2026-03-02' };
    fx.server.always('GET', `${API_PATH}/bank-account-transactions/7`, {
      json: { success: true, message: 'ok', data: held },
    });
    await expect(fx.client.getTransaction(1001, 7)).resolves.toEqual(held);
    expect(fx.apiRequests()[0]?.headers['x-account-id']).toBe('1001');
  });

  it('updateInvoice PATCHes /invoices/{id} with the type filter and returns the invoice', async () => {
    fx = await startFixture();
    fx.server.always('PATCH', `${API_PATH}/invoices/77`, {
      json: { success: true, message: 'ok', data: invoice(77, 'x') },
    });
    const updated = await fx.client.updateInvoice(1, 77, 'SALE', { openAmount: 0, invoiceStatus: 'PAID' });
    expect(updated.id).toBe(77);
    const [request] = fx.apiRequests();
    expect(request?.query.get('invoiceTypeFilter')).toBe('SALE');
    expect(JSON.parse(request?.body ?? '')).toEqual({ openAmount: 0, invoiceStatus: 'PAID' });
  });

  it('createPlansBulk sends a bare JSON array', async () => {
    fx = await startFixture();
    fx.server.always('POST', `${API_PATH}/plans/bulk`, {
      json: { success: true, message: 'ok', createdCount: 1, planIds: [4] },
    });
    await expect(fx.client.createPlansBulk(1, [plan])).resolves.toMatchObject({ planIds: [4] });
    expect(JSON.parse(fx.apiRequests()[0]?.body ?? '')).toEqual([plan]);
  });

  it('bank account helpers unwrap the envelope', async () => {
    fx = await startFixture();
    const bankAccount = {
      id: 5,
      accountCurrency: 'EUR',
      accountName: 'Main',
      bankName: 'Sparkasse',
      accountType: 'CHECKING',
      visible: true,
      provider: 'PARTNER',
    };
    fx.server.always('GET', `${API_PATH}/bank-accounts`, {
      json: { success: true, message: 'ok', data: [bankAccount] },
    });
    fx.server.always('POST', `${API_PATH}/bank-accounts`, {
      json: { success: true, message: 'ok', data: bankAccount },
    });
    fx.server.always('PATCH', `${API_PATH}/bank-accounts/5`, {
      json: { success: true, message: 'ok', data: { ...bankAccount, visible: false } },
    });
    expect(await fx.client.listBankAccounts(1)).toEqual([bankAccount]);
    expect(
      await fx.client.createBankAccount(1, {
        accountCurrency: 'EUR',
        accountName: 'Main',
        bankName: 'Sparkasse',
        accountType: 'CHECKING',
      }),
    ).toEqual(bankAccount);
    expect((await fx.client.updateBankAccount(1, 5, { visible: false })).visible).toBe(false);
  });

  it('listCategories and listScenarios return the bare arrays', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/categories`, {
      json: [{ id: 1, name: 'Rent', type: 'EXPENSE_OPERATIONAL' }],
    });
    fx.server.always('GET', `${API_PATH}/scenarios`, { json: [{ id: 2, name: 'Base', isBaseCase: true }] });
    expect((await fx.client.listCategories(1))[0]?.name).toBe('Rent');
    expect((await fx.client.listScenarios(1))[0]?.isBaseCase).toBe(true);
  });

  it('listInvoices returns one page', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/invoices`, { json: page([invoice(1, 'a')], 0, 4, 200) });
    const result = await fx.client.listInvoices(1, { invoiceTypeFilter: 'PURCHASE', page: 0 });
    expect(result).toMatchObject({ totalPages: 4, totalElements: 200 });
    expect(fx.apiRequests()).toHaveLength(1);
  });
});
