import { describe, expect, it } from 'vitest';
import { dataOf, sandboxPerTest } from '../../support/sandbox.js';
import { bankAccountBody, bankId, DEMO, providerSeed, tx } from './finance-fixtures.js';

type Bank = Record<string, unknown> & { id: number; provider: string; visible: boolean };
const DAY_MS = 86_400_000;

const start = sandboxPerTest();

describe('balances', () => {
  it('derives one start-of-day balance per day from the reference and the bookings, paginated', async () => {
    const s = await start();
    const bank = dataOf<Bank>(
      await s.call('POST', '/bank-accounts', {
        account: DEMO,
        body: bankAccountBody({ balanceReference: 1000, balanceDate: '2026-03-03' }),
      }),
    );
    const transactions = [
      tx('a', { bookingDate: '2026-03-01', amount: 100 }),
      tx('b', { bookingDate: '2026-03-03', amount: -50.1 }),
      tx('c', { bookingDate: '2026-03-05', amount: 0.1 }),
      tx('d', { bookingDate: '2026-03-05', amount: 0.2 }),
    ];
    await s.call('POST', '/bank-account-transactions/bulk', {
      account: DEMO,
      body: { bankAccountId: bank.id, transactions },
    });
    const all = await s.call('GET', `/bank-accounts/${bank.id}/balances`, { account: DEMO });
    expect(all.status).toBe(200);
    expect(dataOf<unknown[]>(all)).toEqual([
      { date: '2026-03-01', balance: 900 },
      { date: '2026-03-02', balance: 1000 },
      { date: '2026-03-03', balance: 1000 },
      { date: '2026-03-04', balance: 949.9 },
      { date: '2026-03-05', balance: 949.9 },
      { date: '2026-03-06', balance: 950.2 },
    ]);
    const page = await s.call('GET', `/bank-accounts/${bank.id}/balances?page=1&pageSize=4`, {
      account: DEMO,
    });
    expect(page.body).toMatchObject({ number: 1, size: 4, totalElements: 6, totalPages: 2 });
    expect(dataOf<{ date: string }[]>(page).map((b) => b.date)).toEqual(['2026-03-05', '2026-03-06']);
  });

  it('answers a lone reference without bookings, nothing without either, and 404 for an unknown account', async () => {
    const s = await start();
    const withRef = dataOf<Bank>(
      await s.call('POST', '/bank-accounts', {
        account: DEMO,
        body: bankAccountBody({ balanceReference: -7, balanceDate: '2026-01-31' }),
      }),
    );
    expect(
      dataOf<unknown[]>(await s.call('GET', `/bank-accounts/${withRef.id}/balances`, { account: DEMO })),
    ).toEqual([{ date: '2026-01-31', balance: -7 }]);
    const online = await bankId(s, 'online');
    expect((await s.call('GET', `/bank-accounts/${online}/balances`, { account: DEMO })).body).toMatchObject({
      totalElements: 0,
      data: [],
    });
    expect((await s.call('GET', '/bank-accounts/999999/balances', { account: DEMO })).status).toBe(404);
  });
});

describe('provider conversion', () => {
  it('converts OFFLINE to API and back, at most once per 30 days', async () => {
    const s = await start({ seed: providerSeed() });
    const offline = await bankId(s, 'offline');
    const toApi = await s.call('POST', `/bank-accounts/${offline}/convert`, {
      account: DEMO,
      body: { targetProvider: 'API' },
    });
    expect(toApi.status).toBe(200);
    expect(dataOf<Bank>(toApi).provider).toBe('API');
    const tooSoon = await s.call('POST', `/bank-accounts/${offline}/convert`, {
      account: DEMO,
      body: { targetProvider: 'OFFLINE' },
    });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body).toMatchObject({ error: 'PROVIDER_CONVERSION_TOO_SOON' });
    s.sandbox.runtime.clock.advance(29 * DAY_MS);
    expect(
      (
        await s.call('POST', `/bank-accounts/${offline}/convert`, {
          account: DEMO,
          body: { targetProvider: 'OFFLINE' },
        })
      ).status,
    ).toBe(400);
    s.sandbox.runtime.clock.advance(DAY_MS);
    const back = await s.call('POST', `/bank-accounts/${offline}/convert`, {
      account: DEMO,
      body: { targetProvider: 'OFFLINE' },
    });
    expect(back.status).toBe(200);
    expect(dataOf<Bank>(back).provider).toBe('OFFLINE');
  });

  it('refuses PARTNER and ONLINE accounts and a target equal to the current provider with 409', async () => {
    const s = await start({ seed: providerSeed() });
    for (const [externalId, targetProvider] of [
      ['partner', 'API'],
      ['online', 'OFFLINE'],
      ['api', 'API'],
      ['offline', 'OFFLINE'],
    ] as const) {
      const id = await bankId(s, externalId);
      const res = await s.call('POST', `/bank-accounts/${id}/convert`, {
        account: DEMO,
        body: { targetProvider },
      });
      expect(res.status, externalId).toBe(409);
      expect(res.body).toMatchObject({ error: 'PROVIDER_CONVERSION_NOT_ALLOWED' });
    }
  });

  it('re-checks the limit when converting to API, unless the account is hidden', async () => {
    const s = await start({
      seed: providerSeed(2, [
        {
          externalId: 'hidden-offline',
          accountName: 'H',
          bankName: 'B',
          provider: 'OFFLINE',
          visible: false,
        },
      ]),
    });
    const offline = await bankId(s, 'offline');
    const res = await s.call('POST', `/bank-accounts/${offline}/convert`, {
      account: DEMO,
      body: { targetProvider: 'API' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'MAX_BANK_ACCOUNTS_REACHED' });
    const hidden = await bankId(s, 'hidden-offline');
    const ok = await s.call('POST', `/bank-accounts/${hidden}/convert`, {
      account: DEMO,
      body: { targetProvider: 'API' },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a missing or invalid targetProvider with 400 INVALID_REQUEST', async () => {
    const s = await start({ seed: providerSeed() });
    const offline = await bankId(s, 'offline');
    for (const body of [{}, { targetProvider: 'PARTNER' }]) {
      const res = await s.call('POST', `/bank-accounts/${offline}/convert`, { account: DEMO, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST' });
    }
    expect(
      (
        await s.call('POST', '/bank-accounts/999999/convert', {
          account: DEMO,
          body: { targetProvider: 'API' },
        })
      ).body,
    ).toMatchObject({
      error: 'BANK_ACCOUNT_NOT_FOUND',
    });
  });
});
