import { afterEach, describe, expect, it } from 'vitest';
import { resolveOperations } from '../../../src/contract/index.js';
import {
  API_PATH,
  type Fixture,
  page,
  problem,
  rejection,
  startFixture,
} from '../../support/client-fixture.js';

let fx: Fixture;
afterEach(async () => {
  await fx?.close();
});

const account = { id: 7, externalId: 'erp-7', companyName: 'ACME' };
const invoice = (id: number, externalId: string) => ({
  id,
  externalId,
  invoiceType: 'SALES_INVOICE',
  invoiceNumber: `R-${id}`,
  contactName: 'Kunde',
  totalGrossAmount: 119,
});

describe('call(): the operation table drives method, path, headers and parsing', () => {
  it('sends the tenant header, bearer token and JSON body of a write', async () => {
    fx = await startFixture();
    fx.server.always('POST', `${API_PATH}/categories`, {
      status: 201,
      json: { id: 3, name: 'Rent', type: 'EXPENSE_OPERATIONAL' },
    });
    const created = await fx.client.call('createCategory', {
      accountId: 42,
      body: { name: 'Rent', type: 'EXPENSE_OPERATIONAL' },
    });
    expect(created).toEqual({ id: 3, name: 'Rent', type: 'EXPENSE_OPERATIONAL' });
    const [request] = fx.apiRequests();
    expect(request?.headers).toMatchObject({
      'x-account-id': '42',
      authorization: 'Bearer access-token-1-xyz',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(JSON.parse(request?.body ?? '')).toEqual({ name: 'Rent', type: 'EXPENSE_OPERATIONAL' });
  });

  it('sends no X-Account-Id for createAccount and listAccounts', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/accounts`, { json: page([account], 0, 1) });
    fx.server.always('POST', `${API_PATH}/accounts`, {
      json: {
        success: true,
        message: 'ok',
        account,
        user: { id: 1, externalId: 'u', email: 'a@b.de', firstName: 'A', lastName: 'B', role: 'ADMIN' },
        company: { id: 2, name: 'ACME' },
      },
    });
    await fx.client.call('listAccounts', { query: { status: 'ACTIVE' } });
    await fx.client.call('createAccount', {
      body: {
        externalId: 'erp-7',
        companyName: 'ACME',
        user: { externalId: 'u', email: 'a@b.de', firstName: 'A', lastName: 'B' },
      },
    });
    expect(fx.apiRequests()).toHaveLength(2);
    for (const request of fx.apiRequests()) expect(request.headers['x-account-id']).toBeUndefined();
    expect(fx.apiRequests()[0]?.query.get('status')).toBe('ACTIVE');
  });

  it('fills path parameters and serialises repeatable query values as repeated parameters', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/invoices`, { json: page([invoice(1, 'a')], 0, 1) });
    fx.server.always('DELETE', `${API_PATH}/invoices/55`, {
      json: { success: true, message: 'gone', id: 55 },
    });
    await fx.client.call('listInvoices', {
      accountId: 1,
      query: { invoiceTypeFilter: 'SALE', externalId: ['a', 'b&c'], page: 0, pageSize: 100 },
    });
    await fx.client.call('deleteInvoice', {
      accountId: 1,
      params: { id: 55 },
      query: { invoiceTypeFilter: 'PURCHASE' },
    });
    const [list, del] = fx.apiRequests();
    expect(list?.query.getAll('externalId')).toEqual(['a', 'b&c']);
    expect(list?.query.get('pageSize')).toBe('100');
    expect(del).toMatchObject({ method: 'DELETE', path: `${API_PATH}/invoices/55` });
    expect(del?.query.get('invoiceTypeFilter')).toBe('PURCHASE');
  });

  it('serves many tenants concurrently from one client', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/scenarios`, (request) => ({
      json: [{ id: Number(request.headers['x-account-id']), name: 'Base', isBaseCase: true }],
    }));
    const ids = [11, 12, 13, 14, 15, 16];
    const results = await Promise.all(ids.map((accountId) => fx.client.listScenarios(accountId)));
    expect(results.map((r) => r[0]?.id)).toEqual(ids);
  });

  it('follows a deployment path override from resolveOperations', async () => {
    fx = await startFixture();
    const { PartnerClient } = await import('../../../src/client/index.js');
    const client = new PartnerClient(
      {
        baseUrl: `${fx.server.url}${API_PATH}`,
        authUrl: `${fx.server.url}/auth`,
        clientId: 'c',
        clientSecret: 's',
      },
      { clock: fx.clock, operations: resolveOperations({ listScenarios: { path: '/planning/scenarios' } }) },
    );
    fx.server.always('GET', `${API_PATH}/planning/scenarios`, { json: [] });
    try {
      await expect(client.listScenarios(1)).resolves.toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('refuses a call without a tenant before sending anything', async () => {
    fx = await startFixture();
    const call = fx.client.call as (name: string, options: object) => Promise<unknown>;
    await expect(call.call(fx.client, 'listScenarios', {})).rejects.toThrow(/needs the tenant/);
    expect(fx.server.requests).toHaveLength(0);
  });
});

describe('responses and errors', () => {
  it('raises MALFORMED_RESPONSE naming the operation and the zod issue path', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/bank-accounts`, {
      json: { success: true, message: 'ok', data: [{ id: 'not-a-number', accountName: 'x' }] },
    });
    const error = await rejection(fx.client.listBankAccounts(9));
    expect(error).toMatchObject({
      kind: 'malformed_response',
      code: 'MALFORMED_RESPONSE',
      operation: 'listBankAccounts',
    });
    expect(error.message).toMatch(/^listBankAccounts for account 9: /);
    expect(error.message).toMatch(/data\[0\]\.id: /);
  });

  it('raises MALFORMED_RESPONSE for a body that is not JSON', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/scenarios`, { text: '<html>maintenance</html>' });
    const error = await rejection(fx.client.listScenarios(9));
    expect(error.code).toBe('MALFORMED_RESPONSE');
    expect(error.message).toMatch(/not JSON/);
  });

  it('passes an unknown service code through as a generic failure with status and causes', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/scenarios`, {
      status: 409,
      json: problem('SOMETHING_NEW', 'new rule', [{ index: 0, field: 'name', code: 'X' }]),
    });
    const error = await rejection(fx.client.listScenarios(9));
    expect(error).toMatchObject({
      kind: 'service',
      code: 'SOMETHING_NEW',
      serviceCode: 'SOMETHING_NEW',
      status: 409,
      causes: [{ index: 0, field: 'name', code: 'X' }],
      operation: 'listScenarios',
      accountId: 9,
    });
  });

  it('turns a non-JSON error body into HTTP_<status>', async () => {
    fx = await startFixture();
    fx.server.always('GET', `${API_PATH}/scenarios`, { status: 503, text: 'Service Unavailable' });
    const error = await rejection(fx.client.listScenarios(9));
    expect(error).toMatchObject({ kind: 'service', code: 'HTTP_503', status: 503, serviceCode: undefined });
  });
});

describe('pages() and items()', () => {
  it('fetches every page of a paginated operation with the spec iteration rule', async () => {
    fx = await startFixture();
    const tx = (id: number) => ({ id, bookingDate: '2030-01-01', amount: id });
    fx.server.always('GET', `${API_PATH}/bank-account-transactions`, (request) => {
      const n = Number(request.query.get('page'));
      return { json: page([tx(n * 2), tx(n * 2 + 1)], n, 3, 6) };
    });
    const ids: number[] = [];
    for await (const item of fx.client.items('listTransactions', {
      accountId: 1,
      query: { bankAccountId: 5, pageSize: 2 },
    })) {
      ids.push(item.id);
    }
    expect(ids).toEqual([0, 1, 2, 3, 4, 5]);
    expect(
      fx
        .apiRequests()
        .map((r) => [r.query.get('page'), r.query.get('bankAccountId'), r.query.get('pageSize')]),
    ).toEqual([
      ['0', '5', '2'],
      ['1', '5', '2'],
      ['2', '5', '2'],
    ]);
  });
});
