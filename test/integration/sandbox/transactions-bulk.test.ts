import { beforeEach, describe, expect, it } from 'vitest';
import { dataOf, sandboxPerFile } from '../../support/sandbox.js';
import { bankId, DEMO, tx } from './finance-fixtures.js';

type Tx = Record<string, unknown> & { id: number; externalId: string };
interface BulkAnswer {
  success: boolean;
  createdCount: number;
  created: { externalId: string; transactionId: number; index: number }[];
  failedCount: number;
  errors: {
    index: number;
    externalId?: string;
    error: string;
    message: string;
    causes: Record<string, unknown>[];
  }[];
  skippedCount: number;
  skipped: { externalId: string; index: number; transactionId: number }[];
}

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

describe('bulk create', () => {
  it('creates valid items, reports invalid ones and skips existing and repeated externalIds', async () => {
    const existing = dataOf<Tx>(
      await call('POST', '/bank-account-transactions', { bankAccountId: main, transaction: tx('old') }),
    );
    const res = await bulk(main, [
      tx('n-1'),
      tx('bad', { amount: 'ten' }),
      tx('old'),
      tx(undefined),
      tx('n-1', { amount: 1 }),
      'not an object',
      tx('usd', { currency: 'USD' }),
    ]);
    expect(res.status).toBe(200);
    const body = res.body as BulkAnswer;
    expect(body).toMatchObject({ success: false, createdCount: 2, failedCount: 3, skippedCount: 2 });
    const created = body.created;
    expect(created[0]).toMatchObject({ externalId: 'n-1', index: 0 });
    expect(created[1]).toMatchObject({ index: 3, externalId: `gen-${created[1]?.transactionId}` });
    expect(body.skipped).toEqual([
      { externalId: 'old', index: 2, transactionId: existing.id },
      { externalId: 'n-1', index: 4, transactionId: created[0]?.transactionId },
    ]);
    expect(body.errors[0]).toMatchObject({
      index: 1,
      externalId: 'bad',
      error: 'INVALID_REQUEST',
      causes: [{ index: 1, field: 'amount' }],
    });
    expect(body.errors[1]).toMatchObject({
      index: 5,
      error: 'INVALID_REQUEST',
      causes: [{ index: 5, field: '(item)' }],
    });
    expect(body.errors[1]).not.toHaveProperty('externalId');
    expect(body.errors[2]).toMatchObject({
      index: 6,
      externalId: 'usd',
      causes: [{ index: 6, field: 'currency' }],
    });
    const list = await call('GET', `/bank-account-transactions?bankAccountId=${main}`);
    expect((list.body as { totalElements: number }).totalElements).toBe(3);
  });

  it('answers success true when every item was created or skipped', async () => {
    const res = await bulk(main, [tx('s-1'), tx('s-1')]);
    expect(res.body).toMatchObject({
      success: true,
      createdCount: 1,
      skippedCount: 1,
      failedCount: 0,
      errors: [],
    });
  });

  it('creates 1000 items and refuses 1001 with BULK_LIMIT_EXCEEDED and 0 with INVALID_REQUEST', async () => {
    const items = Array.from({ length: 1001 }, (_, i) => tx(`k-${i}`));
    const over = await bulk(main, items);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'BULK_LIMIT_EXCEEDED' });
    const full = await bulk(main, items.slice(0, 1000));
    expect(full.body).toMatchObject({ createdCount: 1000, failedCount: 0 });
    const empty = await bulk(main, []);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'INVALID_REQUEST' });
  });

  it('refuses a broken envelope with 400 and non-PARTNER or unknown accounts with 409/404', async () => {
    const missing = await call('POST', '/bank-account-transactions/bulk', { transactions: [tx('a')] });
    expect(missing.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ field: 'bankAccountId' }] });
    const extra = await call('POST', '/bank-account-transactions/bulk', {
      bankAccountId: main,
      transactions: [tx('a')],
      x: 1,
    });
    expect(extra.body).toMatchObject({ error: 'INVALID_REQUEST' });
    expect((await call('POST', '/bank-account-transactions/bulk', [tx('a')])).status).toBe(400);
    expect((await bulk(online, [tx('a')])).body).toMatchObject({ error: 'BANK_ACCOUNT_NOT_MODIFIABLE' });
    expect((await bulk(999999, [tx('a')])).body).toMatchObject({ error: 'BANK_ACCOUNT_NOT_FOUND' });
  });
});

describe('existence check', () => {
  it('answers objects for the external IDs that exist, each once, in request order', async () => {
    const created = (await bulk(main, [tx('e-1'), tx('e-2')])).body as BulkAnswer;
    const res = await call('POST', '/bank-account-transactions/exists', {
      bankAccountId: main,
      externalIds: ['e-2', 'nope', 'e-1', 'e-2'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: [
        { externalId: 'e-2', exists: true, transactionId: created.created[1]?.transactionId },
        { externalId: 'e-1', exists: true, transactionId: created.created[0]?.transactionId },
      ],
    });
  });

  it('is a read (api:read suffices) and checks its list like a bulk request', async () => {
    const reader = await world.sb.token('sandbox-reader', 'sandbox-secret');
    const read = await world.sb.call('POST', '/bank-account-transactions/exists', {
      account: DEMO,
      token: reader,
      body: { bankAccountId: main, externalIds: ['a'] },
    });
    expect(read.status).toBe(200);
    const over = await call('POST', '/bank-account-transactions/exists', {
      bankAccountId: main,
      externalIds: Array.from({ length: 1001 }, (_, i) => `x-${i}`),
    });
    expect(over.body).toMatchObject({ error: 'BULK_LIMIT_EXCEEDED' });
    const empty = await call('POST', '/bank-account-transactions/exists', {
      bankAccountId: main,
      externalIds: [],
    });
    expect(empty.body).toMatchObject({ error: 'INVALID_REQUEST' });
    const bad = await call('POST', '/bank-account-transactions/exists', {
      bankAccountId: main,
      externalIds: ['ok', '', 7],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'INVALID_REQUEST', causes: [{ index: 1 }, { index: 2 }] });
    expect(
      (await call('POST', '/bank-account-transactions/exists', { bankAccountId: 999999, externalIds: ['a'] }))
        .status,
    ).toBe(404);
  });
});

describe('generated externalIds', () => {
  it('never shadow an externalId a client chose in the gen- form', async () => {
    // The next id the sandbox hands out is predictable from the last one: claim it first.
    const probe = (await bulk(main, [tx(undefined)])).body as BulkAnswer;
    const nextId = (probe.created[0]?.transactionId ?? 0) + 2;
    const claimed = (await bulk(main, [tx(`gen-${nextId}`)])).body as BulkAnswer;
    const generated = (await bulk(main, [tx(undefined)])).body as BulkAnswer;
    expect(generated.created[0]).toMatchObject({ transactionId: nextId, externalId: `gen-${nextId}-2` });
    const exists = await call('POST', '/bank-account-transactions/exists', {
      bankAccountId: main,
      externalIds: [`gen-${nextId}`],
    });
    expect(dataOf<unknown[]>(exists)).toEqual([
      { externalId: `gen-${nextId}`, exists: true, transactionId: claimed.created[0]?.transactionId },
    ]);
  });
});
