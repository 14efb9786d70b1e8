import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withSandbox } from '../../support/sandbox.js';
import { adminHelpers } from './admin-fixture.js';
import type { SandboxFixture } from './error-rows/types.js';
import { plantTransaction } from './finance-fixtures.js';

let sb: SandboxFixture;
let a: ReturnType<typeof adminHelpers>;

beforeAll(async () => {
  sb = await withSandbox();
  a = adminHelpers(sb);
});
afterAll(() => sb.close());
beforeEach(async () => {
  await a.admin('POST', '/reset');
});

describe('/_sandbox admin endpoints', () => {
  it('dumps every transaction of an account, across its bank accounts', async () => {
    const token = await sb.token();
    expect((await a.bulk(token, a.transactions(3, 'd'))).status).toBe(200);
    // The ONLINE account is not writable through the API; put one there directly.
    const online = a.bankAccountId('online');
    plantTransaction(sb, online, 'bank-synced');
    const res = await a.admin('GET', '/accounts/1001/transactions');
    expect(res.status).toBe(200);
    const body = res.body as { count: number; data: { externalId: string; bankAccountId: number }[] };
    expect(body.count).toBe(4);
    expect(body.data.map((t) => t.externalId).sort()).toEqual(['bank-synced', 'd-0', 'd-1', 'd-2']);
    expect(new Set(body.data.map((t) => t.bankAccountId))).toEqual(
      new Set([online, a.bankAccountId('main')]),
    );
    expect((await a.admin('GET', '/accounts/1002/transactions')).body).toMatchObject({ count: 0, data: [] });
  });

  it('dumps the invoices of an account, seeded ERP ones included', async () => {
    const created = await sb.call('POST', '/invoices', {
      account: 1001,
      body: {
        invoiceNumber: 'INV-1',
        contactName: 'Customer',
        totalGrossAmount: 100,
        invoiceType: 'SALES_INVOICE',
        externalId: 'inv-1',
      },
    });
    expect(created.status).toBe(200);
    const res = await a.admin('GET', '/accounts/1001/invoices');
    const body = res.body as { data: { externalId: string; origin: string }[] };
    expect(body.data.map((i) => [i.externalId, i.origin])).toEqual([
      ['erp-0001', 'ERP'],
      ['inv-1', 'API'],
    ]);
  });

  it('answers 404 for an unknown account or admin path', async () => {
    expect((await a.admin('GET', '/accounts/999/transactions')).status).toBe(404);
    expect((await a.admin('GET', '/nothing')).body).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('counts requests by operation and status and reports process CPU', async () => {
    const token = await sb.token();
    await sb.call('GET', '/authentication/verify-auth', { account: 1001, token });
    await sb.call('GET', '/authentication/verify-auth', { account: 1001, token });
    await sb.call('GET', '/authentication/verify-auth', { token });
    const first = await a.stats();
    expect(first.requests.verifyAuth).toEqual({ '200': 2, '400': 1 });
    expect(first.cpu.user).toBeGreaterThan(0);
    // Burn a little server CPU: the counter must move.
    await a.bulk(token, a.transactions(500, 'cpu'));
    const second = await a.stats();
    expect(second.cpu.user + second.cpu.system).toBeGreaterThan(first.cpu.user + first.cpu.system);
  });

  it('reset restores state, forgets access tokens and clears stats', async () => {
    const token = await sb.token();
    await a.bulk(token, a.transactions(2, 'gone'));
    expect(await a.storedExternalIds()).toHaveLength(2);
    const res = await a.admin('POST', '/reset');
    expect(res.status).toBe(200);
    expect(await a.storedExternalIds()).toEqual([]);
    expect((await sb.call('GET', '/authentication/verify-auth', { account: 1001, token })).status).toBe(401);
    expect((await a.stats()).requests).toEqual({ verifyAuth: { '401': 1 } });
  });

  it('advances the sandbox clock, refusing a negative or missing advanceMs', async () => {
    const before = Date.parse(((await a.admin('GET', '/clock')).body as { now: string }).now);
    const moved = await a.admin('POST', '/clock', { advanceMs: 86_400_000 });
    expect(Date.parse((moved.body as { now: string }).now) - before).toBeGreaterThanOrEqual(86_400_000);
    expect((await a.admin('POST', '/clock', { advanceMs: -1 })).status).toBe(400);
    expect((await a.admin('POST', '/clock', {})).status).toBe(400);
  });
});
