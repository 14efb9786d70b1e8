import { describe, expect, it } from 'vitest';
import { INVOICE_STATUSES } from '../../../src/contract/index.js';
import { dataOf, sandboxPerFile } from '../../support/sandbox.js';
import { DEMO, invoiceBody } from './finance-fixtures.js';

type Invoice = Record<string, unknown> & { id: number; externalId: string | null };

const world = sandboxPerFile();

const call = (method: string, path: string, body?: unknown) =>
  world.sb.call(method, path, { account: DEMO, body, token: world.token });
const create = async (more: Record<string, unknown> = {}) =>
  dataOf<Invoice>(await call('POST', '/invoices', invoiceBody(more)));
const list = async (query: string) => call('GET', `/invoices?${query}`);
const erpInvoiceId = async () =>
  dataOf<Invoice[]>(await list('invoiceTypeFilter=SALE&externalId=erp-0001'))[0]?.id ?? -1;

describe('invoice CRUD', () => {
  it('creates an API-origin invoice with absent fields as null, readable under its type filter only', async () => {
    const res = await call('POST', '/invoices', invoiceBody({ externalId: 'i-1', dueDate: '2026-04-30' }));
    expect(res.status).toBe(200);
    const invoice = dataOf<Invoice>(res);
    expect(invoice).toMatchObject({
      externalId: 'i-1',
      origin: 'API',
      dueDate: '2026-04-30',
      paidDate: null,
      note: null,
    });
    expect(dataOf<Invoice>(await call('GET', `/invoices/${invoice.id}?invoiceTypeFilter=SALE`))).toEqual(
      invoice,
    );
    const wrong = await call('GET', `/invoices/${invoice.id}?invoiceTypeFilter=PURCHASE`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toMatchObject({ error: 'INVOICE_NOT_FOUND' });
  });

  it('maps credit notes to their side: SALE covers SALES_*, PURCHASE covers PURCHASE_*', async () => {
    const sale = await create({ invoiceType: 'SALES_CREDIT_NOTE' });
    const purchase = await create({ invoiceType: 'PURCHASE_CREDIT_NOTE' });
    expect((await call('GET', `/invoices/${sale.id}?invoiceTypeFilter=SALE`)).status).toBe(200);
    expect((await call('GET', `/invoices/${purchase.id}?invoiceTypeFilter=PURCHASE`)).status).toBe(200);
    expect(
      (await call('PATCH', `/invoices/${purchase.id}?invoiceTypeFilter=SALE`, { note: 'x' })).status,
    ).toBe(404);
    expect((await call('DELETE', `/invoices/${sale.id}?invoiceTypeFilter=PURCHASE`)).status).toBe(404);
    const purchases = dataOf<Invoice[]>(await list('invoiceTypeFilter=PURCHASE'));
    expect(purchases.map((i) => i.id)).toEqual([purchase.id]);
  });

  it('requires invoiceTypeFilter on list, get, patch and delete', async () => {
    const invoice = await create();
    for (const res of [
      await call('GET', '/invoices'),
      await call('GET', `/invoices/${invoice.id}`),
      await call('PATCH', `/invoices/${invoice.id}`, { note: 'x' }),
      await call('DELETE', `/invoices/${invoice.id}`),
      await call('GET', '/invoices?invoiceTypeFilter=SALES'),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST' });
    }
  });

  it('accepts every invoice status', async () => {
    for (const invoiceStatus of INVOICE_STATUSES) {
      expect((await call('POST', '/invoices', invoiceBody({ invoiceStatus }))).status, invoiceStatus).toBe(
        200,
      );
    }
  });

  it('does not de-duplicate by externalId: two creates make two invoices, found together by lookup', async () => {
    const first = await create({ externalId: 'same' });
    const second = await create({ externalId: 'same' });
    expect(second.id).not.toBe(first.id);
    await create({ externalId: 'other' });
    const found = await list('invoiceTypeFilter=SALE&externalId=same&externalId=missing');
    expect(found.body).toMatchObject({ totalElements: 2 });
    expect(dataOf<Invoice[]>(found).map((i) => i.id)).toEqual([first.id, second.id]);
  });

  it('pages an externalId lookup and bounds the filter (<= 100 values, each <= 255 chars)', async () => {
    const ids = ['a', 'b', 'c'];
    for (const externalId of ids) await create({ externalId });
    const page = await list(
      `invoiceTypeFilter=SALE&pageSize=2&page=1&${ids.map((e) => `externalId=${e}`).join('&')}`,
    );
    expect(page.body).toMatchObject({ number: 1, totalElements: 3, totalPages: 2 });
    expect(dataOf<Invoice[]>(page).map((i) => i.externalId)).toEqual(['c']);
    const many = Array.from({ length: 101 }, (_, i) => `externalId=x${i}`).join('&');
    expect((await list(`invoiceTypeFilter=SALE&${many}`)).status).toBe(400);
    expect((await list(`invoiceTypeFilter=SALE&externalId=${'x'.repeat(256)}`)).status).toBe(400);
  });

  it('patches only the given fields, null clears nullable ones, externalId and invoiceType are refused', async () => {
    const invoice = await create({
      note: 'first',
      openAmount: 50,
      paidDate: '2026-03-01',
      externalId: 'p-1',
    });
    const res = await call('PATCH', `/invoices/${invoice.id}?invoiceTypeFilter=SALE`, {
      note: null,
      paidDate: null,
      invoiceStatus: 'PAID',
    });
    expect(res.status).toBe(200);
    expect(dataOf<Invoice>(res)).toMatchObject({
      note: null,
      paidDate: null,
      openAmount: 50,
      invoiceStatus: 'PAID',
      invoiceNumber: 'INV-1',
      externalId: 'p-1',
    });
    for (const body of [{ externalId: 'new' }, { invoiceType: 'PURCHASE_INVOICE' }]) {
      const refused = await call('PATCH', `/invoices/${invoice.id}?invoiceTypeFilter=SALE`, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'INVALID_REQUEST' });
    }
    expect(
      (await call('PATCH', `/invoices/${invoice.id}?invoiceTypeFilter=SALE`, { categoryId: 1 })).body,
    ).toMatchObject({
      error: 'CATEGORY_NOT_FOUND',
    });
  });

  it('deletes an invoice: gone by id and from the externalId lookup', async () => {
    const invoice = await create({ externalId: 'd-1' });
    const del = await call('DELETE', `/invoices/${invoice.id}?invoiceTypeFilter=SALE`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, id: invoice.id });
    expect((await call('GET', `/invoices/${invoice.id}?invoiceTypeFilter=SALE`)).status).toBe(404);
    expect((await list('invoiceTypeFilter=SALE&externalId=d-1')).body).toMatchObject({ totalElements: 0 });
    expect((await call('GET', '/invoices/abc?invoiceTypeFilter=SALE')).status).toBe(400);
  });

  it('keeps ERP-originated invoices read-only: PATCH and DELETE answer 409 INVOICE_NOT_MODIFIABLE', async () => {
    const id = await erpInvoiceId();
    expect(dataOf<Invoice>(await call('GET', `/invoices/${id}?invoiceTypeFilter=SALE`))).toMatchObject({
      origin: 'ERP',
    });
    for (const res of [
      await call('PATCH', `/invoices/${id}?invoiceTypeFilter=SALE`, { note: 'x' }),
      await call('DELETE', `/invoices/${id}?invoiceTypeFilter=SALE`),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'INVOICE_NOT_MODIFIABLE' });
    }
    expect(dataOf<Invoice>(await call('GET', `/invoices/${id}?invoiceTypeFilter=SALE`)).note).toBeNull();
  });
});

describe('bulk invoice creation', () => {
  const bulk = (invoices: unknown) => call('POST', '/invoices/bulk', { invoices });

  it('creates the valid items in request order and reports the invalid ones per item', async () => {
    const res = await bulk([
      invoiceBody({ externalId: 'b-1' }),
      invoiceBody({ externalId: 'b-2', totalGrossAmount: 'lots' }),
      invoiceBody({ invoiceType: 'PURCHASE_INVOICE', externalId: 'b-1' }),
      invoiceBody({ categoryId: 1 }),
      42,
    ]);
    expect(res.status).toBe(200);
    const body = res.body as {
      success: boolean;
      createdCount: number;
      invoiceIds: number[];
      failedCount: number;
      errors: Record<string, unknown>[];
    };
    expect(body).toMatchObject({ success: false, createdCount: 2, failedCount: 3 });
    expect(body.errors).toMatchObject([
      {
        index: 1,
        externalId: 'b-2',
        error: 'INVALID_REQUEST',
        causes: [{ index: 1, field: 'totalGrossAmount' }],
      },
      { index: 3, error: 'CATEGORY_NOT_FOUND', causes: [{ index: 3, field: 'categoryId' }] },
      { index: 4, error: 'INVALID_REQUEST' },
    ]);
    const [sale, purchase] = body.invoiceIds;
    expect(dataOf<Invoice>(await call('GET', `/invoices/${sale}?invoiceTypeFilter=SALE`))).toMatchObject({
      externalId: 'b-1',
    });
    expect(
      dataOf<Invoice>(await call('GET', `/invoices/${purchase}?invoiceTypeFilter=PURCHASE`)),
    ).toMatchObject({
      externalId: 'b-1',
      origin: 'API',
    });
  });

  it('takes 1000 items, refuses 1001 with BULK_LIMIT_EXCEEDED, and an empty or malformed envelope with 400', async () => {
    const items = Array.from({ length: 1001 }, (_, i) => invoiceBody({ externalId: `n-${i}` }));
    const over = await bulk(items);
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'BULK_LIMIT_EXCEEDED' });
    expect((await bulk(items.slice(0, 1000))).body).toMatchObject({
      success: true,
      createdCount: 1000,
      failedCount: 0,
    });
    for (const res of [
      await bulk([]),
      await bulk('x'),
      await call('POST', '/invoices/bulk', { invoices: [invoiceBody()], extra: 1 }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST' });
    }
  });
});
