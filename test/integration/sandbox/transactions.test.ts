import { beforeEach, describe, expect, it } from 'vitest';
import { dataOf, sandboxPerFile } from '../../support/sandbox.js';
import { bankAccountBody, bankId, DEMO, plantTransaction, tx } from './finance-fixtures.js';

type Tx = Record<string, unknown> & { id: number; externalId: string };

const world = sandboxPerFile();
let main: number;
let online: number;
beforeEach(async () => {
  main = await bankId(world.sb, 'main');
  online = await bankId(world.sb, 'online');
});

const call = (method: string, path: string, body?: unknown) =>
  world.sb.call(method, path, { account: DEMO, body, token: world.token });
const bulk = (bankAccountId: number, transactions: unknown[]) =>
  call('POST', '/bank-account-transactions/bulk', { bankAccountId, transactions });

/** Bulk-creates one transaction per externalId; answers their ids. */
async function createdIds(bankAccountId: number, externalIds: string[]): Promise<number[]> {
  const { body } = await bulk(
    bankAccountId,
    externalIds.map((id) => tx(id)),
  );
  return (body as { created: { transactionId: number }[] }).created.map((c) => c.transactionId);
}

describe('single transactions', () => {
  it('creates, reads and lists a transaction; currency defaults to the account currency', async () => {
    const res = await call('POST', '/bank-account-transactions', {
      bankAccountId: main,
      transaction: tx('t-1'),
    });
    expect(res.status).toBe(200);
    const created = dataOf<Tx>(res);
    expect(created).toMatchObject({ bankAccountId: main, externalId: 't-1', amount: -12.5, currency: 'EUR' });
    expect(dataOf<Tx>(await call('GET', `/bank-account-transactions/${created.id}`))).toEqual(created);
    const list = await call('GET', `/bank-account-transactions?bankAccountId=${main}`);
    expect(list.body).toMatchObject({ totalElements: 1, data: [created] });
  });

  it('generates an externalId when none is given', async () => {
    const created = dataOf<Tx>(
      await call('POST', '/bank-account-transactions', { bankAccountId: main, transaction: tx(undefined) }),
    );
    expect(created.externalId).toBe(`gen-${created.id}`);
  });

  it('refuses a second create with the same externalId with 409 TRANSACTION_ALREADY_EXISTS', async () => {
    const first = dataOf<Tx>(
      await call('POST', '/bank-account-transactions', { bankAccountId: main, transaction: tx('dup') }),
    );
    const again = await call('POST', '/bank-account-transactions', {
      bankAccountId: main,
      transaction: tx('dup'),
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'TRANSACTION_ALREADY_EXISTS' });
    expect((again.body as { message: string }).message).toContain(String(first.id));
  });

  it('refuses a currency other than the account currency and an unknown category', async () => {
    const usd = await call('POST', '/bank-account-transactions', {
      bankAccountId: main,
      transaction: tx('u', { currency: 'USD' }),
    });
    expect(usd.status).toBe(400);
    expect(usd.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field: 'transaction.currency' }] });
    const cat = await call('POST', '/bank-account-transactions', {
      bankAccountId: main,
      transaction: tx('c', { categoryId: 1 }),
    });
    expect(cat.status).toBe(404);
    expect(cat.body).toMatchObject({ error: 'CATEGORY_NOT_FOUND' });
  });

  it('writes only to PARTNER accounts (409) and only to known ones (404); reads work on any provider', async () => {
    const onOnline = await call('POST', '/bank-account-transactions', {
      bankAccountId: online,
      transaction: tx('x'),
    });
    expect(onOnline.status).toBe(409);
    expect(onOnline.body).toMatchObject({ error: 'BANK_ACCOUNT_NOT_MODIFIABLE' });
    const unknown = await call('POST', '/bank-account-transactions', {
      bankAccountId: 999999,
      transaction: tx('x'),
    });
    expect(unknown.body).toMatchObject({ error: 'BANK_ACCOUNT_NOT_FOUND' });
    expect((await call('GET', `/bank-account-transactions?bankAccountId=${online}`)).status).toBe(200);
    expect(
      (await call('POST', '/bank-account-transactions/exists', { bankAccountId: online, externalIds: ['x'] }))
        .status,
    ).toBe(200);
    const foreign = await bankId(world.sb, 'main', 1002);
    expect((await call('GET', `/bank-account-transactions?bankAccountId=${foreign}`)).status).toBe(404);
  });

  it('updates only the given fields, clears categoryId with null, refuses externalId', async () => {
    const category = world.sb.sandbox.runtime.state.accounts.get(DEMO)?.categories.keys().next().value;
    const created = dataOf<Tx>(
      await call('POST', '/bank-account-transactions', {
        bankAccountId: main,
        transaction: tx('u-1', { categoryId: category, purpose: 'rent' }),
      }),
    );
    const res = await call('PATCH', `/bank-account-transactions/${created.id}`, {
      amount: 99,
      categoryId: null,
    });
    expect(res.status).toBe(200);
    expect(dataOf<Tx>(res)).toMatchObject({
      amount: 99,
      categoryId: null,
      purpose: 'rent',
      externalId: 'u-1',
    });
    const renamed = await call('PATCH', `/bank-account-transactions/${created.id}`, { externalId: 'other' });
    expect(renamed.status).toBe(400);
    expect(renamed.body).toMatchObject({ error: 'INVALID_REQUEST' });
    expect((await call('PATCH', '/bank-account-transactions/999999', { amount: 1 })).body).toMatchObject({
      error: 'TRANSACTION_NOT_FOUND',
    });
    expect((await call('GET', '/bank-account-transactions/1.5')).status).toBe(400);
  });

  it('refuses updates of transactions on accounts that are not PARTNER-managed', async () => {
    // The seed has no transactions on non-PARTNER accounts; put one there directly.
    const { id } = plantTransaction(world.sb, online, 'bank-1');
    expect((await call('GET', `/bank-account-transactions/${id}`)).status).toBe(200);
    const res = await call('PATCH', `/bank-account-transactions/${id}`, { amount: 1 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'BANK_ACCOUNT_NOT_MODIFIABLE' });
  });

  it('finds each transaction by id whatever bank account holds it; other ids are 404', async () => {
    const other = dataOf<{ id: number }>(await call('POST', '/bank-accounts', bankAccountBody())).id;
    // Interleaved, so each bank account's ids have gaps that belong to the other one.
    const ids = [
      ...(await createdIds(main, ['m-1', 'm-2'])),
      ...(await createdIds(other, ['o-1', 'o-2'])),
      ...(await createdIds(main, ['m-3', 'm-4'])),
    ];
    for (const id of ids)
      expect(dataOf<Tx>(await call('GET', `/bank-account-transactions/${id}`)).id).toBe(id);
    for (const unused of [other, Math.max(...ids) + 1])
      expect((await call('GET', `/bank-account-transactions/${unused}`)).status).toBe(404);
  });

  it('lists page by page in id order and requires bankAccountId', async () => {
    await bulk(
      main,
      ['a', 'b', 'c', 'd', 'e'].map((id) => tx(id)),
    );
    const page = await call('GET', `/bank-account-transactions?bankAccountId=${main}&page=1&pageSize=2`);
    expect(page.body).toMatchObject({ number: 1, size: 2, totalElements: 5, totalPages: 3 });
    expect(dataOf<Tx[]>(page).map((t) => t.externalId)).toEqual(['c', 'd']);
    expect((await call('GET', '/bank-account-transactions')).body).toMatchObject({
      error: 'INVALID_REQUEST',
    });
  });
});
