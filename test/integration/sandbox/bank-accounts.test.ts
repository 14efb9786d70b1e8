import { describe, expect, it } from 'vitest';
import { dataOf, sandboxPerTest } from '../../support/sandbox.js';
import { bankAccountBody, bankId, DEMO, providerSeed, tx } from './finance-fixtures.js';

type Bank = Record<string, unknown> & { id: number; provider: string; visible: boolean };

const start = sandboxPerTest();

describe('bank accounts: list, create, get', () => {
  it('lists every account of the tenant with its provider and no internal fields', async () => {
    const s = await start();
    const res = await s.call('GET', '/bank-accounts', { account: DEMO });
    expect(res.status).toBe(200);
    const banks = dataOf<Bank[]>(res);
    expect(banks.map((b) => [b.externalId, b.provider])).toEqual([
      ['main', 'PARTNER'],
      ['online', 'ONLINE'],
    ]);
    for (const bank of banks) expect(Object.keys(bank).some((k) => k.startsWith('_'))).toBe(false);
    expect(res.body).not.toHaveProperty('totalPages');
  });

  it('creates a PARTNER account in the default company, readable by id', async () => {
    const s = await start();
    const res = await s.call('POST', '/bank-accounts', {
      account: DEMO,
      body: bankAccountBody({ iban: 'DE89' }),
    });
    expect(res.status).toBe(200);
    const created = dataOf<Bank>(res);
    const firstCompany = s.sandbox.runtime.state.accounts.get(DEMO)?.companies.keys().next().value;
    expect(created).toMatchObject({
      provider: 'PARTNER',
      visible: true,
      companyId: firstCompany,
      iban: 'DE89',
    });
    expect(created).not.toHaveProperty('_lastConvertedAt');
    const got = await s.call('GET', `/bank-accounts/${created.id}`, { account: DEMO });
    expect(dataOf<Bank>(got)).toEqual(created);
  });

  it('refuses a companyId outside the tenant with 404 COMPANY_NOT_FOUND', async () => {
    const s = await start();
    const res = await s.call('POST', '/bank-accounts', {
      account: DEMO,
      body: bankAccountBody({ companyId: 424242 }),
    });
    expect(res.status).toBe(404);
    // Same answer as create user: the field named, so a client knows which id to fix.
    expect(res.body).toMatchObject({ error: 'COMPANY_NOT_FOUND', causes: [{ field: 'companyId' }] });
  });

  it('refuses balanceReference without balanceDate, and a missing accountCurrency', async () => {
    const s = await start();
    const half = await s.call('POST', '/bank-accounts', {
      account: DEMO,
      body: bankAccountBody({ balanceReference: 5 }),
    });
    expect(half.status).toBe(400);
    expect(half.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field: 'balanceDate' }] });
    const { accountCurrency: _, ...noCurrency } = bankAccountBody();
    expect((await s.call('POST', '/bank-accounts', { account: DEMO, body: noCurrency })).status).toBe(400);
  });

  it('answers 400 for a non-integer id and 404 BANK_ACCOUNT_NOT_FOUND for an unknown or foreign one', async () => {
    const s = await start();
    for (const id of ['12abc', '1.0', '1e3', '99999999999999999']) {
      expect((await s.call('GET', `/bank-accounts/${id}`, { account: DEMO })).body, id).toMatchObject({
        error: 'INVALID_REQUEST',
      });
    }
    expect((await s.call('GET', '/bank-accounts/-5', { account: DEMO })).status).toBe(404);
    // Leading zeros name the same id, whatever their count (one rule with accounts and users).
    const own = await bankId(s, 'main', 1001);
    for (const zeros of ['0', '0000000000000000'])
      expect(
        (await s.call('GET', `/bank-accounts/${zeros}${own}`, { account: DEMO })).body,
        zeros,
      ).toMatchObject({
        data: { id: own },
      });
    const foreign = await bankId(s, 'main', 1002);
    const res = await s.call('GET', `/bank-accounts/${foreign}`, { account: DEMO });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'BANK_ACCOUNT_NOT_FOUND' });
  });
});

describe('the subscription bank-account limit', () => {
  // providerSeed(3): the API and PARTNER accounts count (2 of 3); OFFLINE and ONLINE do not.
  it('counts visible API and PARTNER accounts; hidden ones may be created at the limit', async () => {
    const s = await start({ seed: providerSeed(3) });
    expect((await s.call('POST', '/bank-accounts', { account: DEMO, body: bankAccountBody() })).status).toBe(
      200,
    );
    const over = await s.call('POST', '/bank-accounts', { account: DEMO, body: bankAccountBody() });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'MAX_BANK_ACCOUNTS_REACHED' });
    const hidden = await s.call('POST', '/bank-accounts', {
      account: DEMO,
      body: bankAccountBody({ visible: false }),
    });
    expect(hidden.status).toBe(200);
    expect(dataOf<Bank>(hidden).visible).toBe(false);
  });

  it('re-checks the limit when a hidden account is made visible, and counts again once hidden ones are freed', async () => {
    const s = await start({ seed: providerSeed(2) });
    const hidden = dataOf<Bank>(
      await s.call('POST', '/bank-accounts', { account: DEMO, body: bankAccountBody({ visible: false }) }),
    );
    const show = await s.call('PATCH', `/bank-accounts/${hidden.id}`, {
      account: DEMO,
      body: { visible: true },
    });
    expect(show.status).toBe(400);
    expect(show.body).toMatchObject({ error: 'MAX_BANK_ACCOUNTS_REACHED' });
    // The refused update changed nothing.
    expect(dataOf<Bank>(await s.call('GET', `/bank-accounts/${hidden.id}`, { account: DEMO })).visible).toBe(
      false,
    );

    const partner = await bankId(s, 'partner');
    expect(
      (await s.call('PATCH', `/bank-accounts/${partner}`, { account: DEMO, body: { visible: false } }))
        .status,
    ).toBe(200);
    const again = await s.call('PATCH', `/bank-accounts/${hidden.id}`, {
      account: DEMO,
      body: { visible: true },
    });
    expect(again.status).toBe(200);
    expect(dataOf<Bank>(again).visible).toBe(true);
  });
});

describe('bank accounts: update and delete', () => {
  it('updates every field of a PARTNER account, applying only what is sent', async () => {
    const s = await start();
    const id = await bankId(s, 'main');
    const res = await s.call('PATCH', `/bank-accounts/${id}`, {
      account: DEMO,
      body: {
        accountName: 'Renamed',
        bankName: 'Other Bank',
        accountType: 'SAVINGS',
        accountCurrency: 'CHF',
      },
    });
    expect(res.status).toBe(200);
    expect(dataOf<Bank>(res)).toMatchObject({
      accountName: 'Renamed',
      bankName: 'Other Bank',
      accountType: 'SAVINGS',
      accountCurrency: 'CHF',
      iban: 'DE02120300000000202051',
      provider: 'PARTNER',
    });
  });

  it('refuses unknown fields (strict body) and an update of a non-PARTNER account', async () => {
    const s = await start();
    const main = await bankId(s, 'main');
    const strict = await s.call('PATCH', `/bank-accounts/${main}`, {
      account: DEMO,
      body: { provider: 'API' },
    });
    expect(strict.status).toBe(400);
    expect(strict.body).toMatchObject({ error: 'INVALID_REQUEST' });
    const online = await bankId(s, 'online');
    const res = await s.call('PATCH', `/bank-accounts/${online}`, {
      account: DEMO,
      body: { accountName: 'x' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'BANK_ACCOUNT_NOT_MODIFIABLE' });
  });

  it('deletes a PARTNER account together with its transactions; other providers answer 409', async () => {
    const s = await start();
    const main = await bankId(s, 'main');
    const created = await s.call('POST', '/bank-account-transactions', {
      account: DEMO,
      body: { bankAccountId: main, transaction: tx('t-1') },
    });
    const txId = dataOf<{ id: number }>(created).id;
    const del = await s.call('DELETE', `/bank-accounts/${main}`, { account: DEMO });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, id: main });
    expect((await s.call('GET', `/bank-accounts/${main}`, { account: DEMO })).status).toBe(404);
    expect((await s.call('GET', `/bank-account-transactions/${txId}`, { account: DEMO })).body).toMatchObject(
      {
        error: 'TRANSACTION_NOT_FOUND',
      },
    );
    expect((await s.call('DELETE', `/bank-accounts/${main}`, { account: DEMO })).status).toBe(404);
    const online = await bankId(s, 'online');
    expect((await s.call('DELETE', `/bank-accounts/${online}`, { account: DEMO })).body).toMatchObject({
      error: 'BANK_ACCOUNT_NOT_MODIFIABLE',
    });
  });
});
