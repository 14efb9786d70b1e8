import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvoiceCreate } from '../../../src/contract/index.js';
import { syncInvoicesChunk } from '../../../src/kinds/invoices/strategy.js';
import type { RecordOf } from '../../../src/sources/record-of.js';
import type { UpsertOptions } from '../../../src/sync/writes/field-diff.js';
import {
  byOutcome,
  closeStrategySandboxes,
  eachOnce,
  outcomeAt,
  strategySandbox,
} from './strategy-fixture.js';

afterEach(closeStrategySandboxes);

type InvoiceRecord = RecordOf<'invoices'>;

function invoice(k: number, over: Partial<InvoiceCreate> = {}): InvoiceRecord {
  const payload: InvoiceCreate = {
    externalId: `inv-${k}`,
    invoiceType: 'SALES_INVOICE',
    invoiceNumber: `RE-${k}`,
    contactName: 'Kunde GmbH',
    totalGrossAmount: 100 + k,
    invoiceDate: '2026-02-01',
    dueDate: '2026-03-01',
    ...over,
  };
  return {
    file: 'invoices.csv',
    line: k + 2,
    externalId: payload.externalId ?? `inv-${k}`,
    derivedId: false,
    amount: String(payload.totalGrossAmount),
    payload,
  };
}

const invoices = (n: number, from = 0) => Array.from({ length: n }, (_, i) => invoice(from + i));

const MAPPED = [
  'externalId',
  'invoiceType',
  'invoiceNumber',
  'contactName',
  'totalGrossAmount',
  'invoiceDate',
  'dueDate',
];
const UPSERT: UpsertOptions = { mode: 'upsert', emptyCellClears: false, mappedFields: MAPPED };

describe('syncInvoicesChunk against the sandbox', () => {
  it('creates what the lookup misses with ids in request order, and a rerun skips everything unchanged', async () => {
    const { ctx, account, requests } = await strategySandbox();
    // 1000 records: the lookup is split into GETs of at most 100 externalIds.
    const input = invoices(1000);
    // A refused item in the middle: invoiceIds leave it out, so later ids must shift by one.
    (input[500] as InvoiceRecord).payload.categoryId = 987654;
    const first = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(eachOnce(first, input)).toBe(true);
    expect(byOutcome(first)).toEqual({ created: 999, rejected: 1 });
    expect(outcomeAt(first, 502)).toMatchObject({ outcome: 'rejected', code: 'CATEGORY_NOT_FOUND' });
    const stored = new Map([...account().invoices.values()].map((i) => [i.externalId, i]));
    for (const o of first.filter((x) => x.outcome === 'created')) {
      const held = stored.get(o.externalId ?? '');
      expect(held?.id).toBe(o.serviceId);
      expect(held?.invoiceNumber).toBe(`RE-${(o.externalId ?? '').slice(4)}`);
    }
    // 10 GETs under SALE, and 10 under PURCHASE for what SALE did not find (no externalId twice in either).
    expect(requests('listInvoices')[200]).toBe(20);

    const second = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(byOutcome(second)).toEqual({ skipped: 999, rejected: 1 });
    expect(second[0]).toMatchObject({ outcome: 'skipped', message: 'unchanged' });
    expect(requests('updateInvoice')).toEqual({});
    // Only the rejected record was looked up under PURCHASE again: 10 + 1 GETs.
    expect(requests('listInvoices')[200]).toBe(31);
    expect(account().invoices.size).toBe(1 + 999); // the seeded ERP invoice + ours
  });

  it('after a commit-then-reset looks up instead of resending: no externalId twice', async () => {
    const { ctx, clock, account, requests } = await strategySandbox({
      script: [{ op: 'createInvoicesBulk', fault: 'commit-then-reset' }],
    });
    const input = invoices(150);
    const outcomes = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(byOutcome(outcomes)).toEqual({ created: 150 });
    expect(outcomes[0]?.message).toMatch(/confirmed by the lookup/);
    // A lost answer is waited out first: the in-flight bound, twice the default 60 s headers timeout.
    expect(clock.sleeps).toEqual([120_000]);
    expect(requests('createInvoicesBulk')).toEqual({ reset: 1 });
    const ids = [...account().invoices.values()].map((i) => i.externalId);
    expect(ids).toHaveLength(151);
    expect(new Set(ids).size).toBe(151);
  });

  it('after a commit-then-500 on a partly existing chunk creates nothing twice', async () => {
    const { ctx, account } = await strategySandbox({
      script: [{ op: 'createInvoicesBulk', fault: 'commit-then-500', times: 2 }],
    });
    const input = invoices(40);
    await syncInvoicesChunk(input.slice(0, 15), UPSERT, ctx);
    const outcomes = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(byOutcome(outcomes)).toEqual({ skipped: 15, created: 25 });
    const ids = [...account().invoices.values()].map((i) => i.externalId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(41);
  });

  it('marks the chunk failed after three re-checks of 500s, and the next run creates it', async () => {
    const { ctx, clock, account } = await strategySandbox({
      script: [{ op: 'createInvoicesBulk', fault: '500', times: 4 }],
    });
    const input = invoices(5);
    const outcomes = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(byOutcome(outcomes)).toEqual({ failed: 5 });
    expect(outcomes[0]?.code).toBe('AMBIGUOUS_WRITE');
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(account().invoices.size).toBe(1);
    expect(byOutcome(await syncInvoicesChunk(input, UPSERT, ctx))).toEqual({ created: 5 });
  });

  it('PATCHes only the fields that changed; dates the service sends as date-times compare as dates', async () => {
    const { ctx, client, account } = await strategySandbox();
    const input = invoices(3);
    await syncInvoicesChunk(input, UPSERT, ctx);
    const held = [...account().invoices.values()].filter((i) => i.externalId?.startsWith('inv-'));
    // Edited in the service: a field the feed does not map, and a date stored as a date-time.
    for (const i of held) {
      i.note = 'edited in the app';
      i.dueDate = '2026-03-01T00:00:00Z';
    }
    const changed = input.map((r, i) =>
      i === 1
        ? { ...r, payload: { ...r.payload, contactName: 'Neuer Kunde AG', totalGrossAmount: 250.5 } }
        : r,
    );
    const spy = vi.spyOn(client, 'updateInvoice');
    const outcomes = await syncInvoicesChunk(changed, UPSERT, ctx);
    expect(byOutcome(outcomes)).toEqual({ skipped: 2, updated: 1 });
    expect(outcomes[1]).toMatchObject({
      outcome: 'updated',
      message: 'changed: contactName, totalGrossAmount',
    });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[2]).toBe('SALE');
    expect(spy.mock.calls[0]?.[3]).toEqual({ contactName: 'Neuer Kunde AG', totalGrossAmount: 250.5 });
    const after = account().invoices.get(outcomes[1]?.serviceId ?? -1);
    expect(after).toMatchObject({
      contactName: 'Neuer Kunde AG',
      totalGrossAmount: 250.5,
      note: 'edited in the app',
    });
  });

  it('clears a mapped nullable field from an empty cell only with emptyCellClears', async () => {
    const { ctx, client, account } = await strategySandbox();
    const withValues = invoice(1, { note: 'Skonto 2%', paidDate: '2026-02-10', openAmount: 0 });
    await syncInvoicesChunk([withValues], UPSERT, ctx);
    const id = [...account().invoices.values()].find((i) => i.externalId === 'inv-1')?.id ?? -1;
    // The export now has empty cells for note, paidDate, openAmount and invoiceDate.
    const { note, paidDate, openAmount, invoiceDate, ...rest } = withValues.payload;
    const emptied: InvoiceRecord = { ...withValues, payload: rest };
    const mappedFields = [...MAPPED, 'note', 'openAmount']; // paidDate is not mapped by this feed

    const keep = await syncInvoicesChunk([emptied], { ...UPSERT, mappedFields }, ctx);
    expect(keep[0]).toMatchObject({ outcome: 'skipped', message: 'unchanged' });
    expect(account().invoices.get(id)).toMatchObject({
      note: 'Skonto 2%',
      openAmount: 0,
      paidDate: '2026-02-10',
    });

    const spy = vi.spyOn(client, 'updateInvoice');
    const clear = await syncInvoicesChunk([emptied], { ...UPSERT, mappedFields, emptyCellClears: true }, ctx);
    expect(clear[0]).toMatchObject({ outcome: 'updated', serviceId: id });
    // invoiceDate is mapped but not nullable, paidDate nullable but not mapped: both left alone.
    expect(spy.mock.calls[0]?.[3]).toEqual({ note: null, openAmount: null });
    expect(account().invoices.get(id)).toMatchObject({
      note: null,
      openAmount: null,
      paidDate: '2026-02-10',
      invoiceDate: '2026-02-01',
    });
  });

  it('rejects a change to an ERP invoice with advice and goes on with the rest', async () => {
    const { ctx, account } = await strategySandbox();
    const erp = invoice(0, {
      externalId: 'erp-0001',
      invoiceNumber: 'ERP-2026-0001',
      contactName: 'Someone else',
      totalGrossAmount: 1190,
    });
    const input = [{ ...erp, externalId: 'erp-0001' }, invoice(1), invoice(2)];
    const outcomes = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(byOutcome(outcomes)).toEqual({ rejected: 1, created: 2 });
    expect(outcomes[0]).toMatchObject({ outcome: 'rejected', code: 'INVOICE_NOT_MODIFIABLE' });
    expect(outcomes[0]?.message).toMatch(/read-only for the partner API/);
    const held = [...account().invoices.values()].find((i) => i.externalId === 'erp-0001');
    expect(held?.contactName).toBe('ERP Customer AG');
  });

  it('rejects a type change, also across SALE/PURCHASE, without creating a second invoice', async () => {
    const { ctx, account } = await strategySandbox();
    await syncInvoicesChunk([invoice(1), invoice(2)], UPSERT, ctx);
    const input = [
      invoice(1, { invoiceType: 'SALES_CREDIT_NOTE' }),
      invoice(2, { invoiceType: 'PURCHASE_INVOICE' }),
    ];
    const outcomes = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(outcomes.map((o) => [o.outcome, o.code])).toEqual([
      ['rejected', 'INVOICE_TYPE_MISMATCH'],
      ['rejected', 'INVOICE_TYPE_MISMATCH'],
    ]);
    expect(outcomes[1]?.message).toMatch(/SALES_INVOICE in the service, the record says PURCHASE_INVOICE/);
    expect([...account().invoices.values()].filter((i) => i.externalId === 'inv-2')).toHaveLength(1);
  });

  it('mode insert skips existing invoices; mode update rejects missing ones and creates nothing', async () => {
    const { ctx, account, requests } = await strategySandbox();
    await syncInvoicesChunk([invoice(1)], UPSERT, ctx);
    const changed = invoice(1, { contactName: 'Changed' });

    const insert = await syncInvoicesChunk([changed, invoice(2)], { ...UPSERT, mode: 'insert' }, ctx);
    expect(insert.map((o) => [o.outcome, o.message])).toEqual([
      ['skipped', 'exists; feed mode insert'],
      ['created', undefined],
    ]);
    expect(requests('updateInvoice')).toEqual({});

    const bulkBefore = requests('createInvoicesBulk')[200];
    const update = await syncInvoicesChunk([changed, invoice(3)], { ...UPSERT, mode: 'update' }, ctx);
    expect(update.map((o) => [o.outcome, o.code])).toEqual([
      ['updated', undefined],
      ['rejected', 'NOT_FOUND_FOR_UPDATE'],
    ]);
    expect(requests('createInvoicesBulk')[200]).toBe(bulkBefore);
    expect([...account().invoices.values()].some((i) => i.externalId === 'inv-3')).toBe(false);
  });

  it('rejects a second record with the same externalId in one chunk, naming the first line', async () => {
    const { ctx, account } = await strategySandbox();
    const input = [invoice(1), invoice(2), { ...invoice(1, { contactName: 'Later' }), line: 9 }];
    const outcomes = await syncInvoicesChunk(input, UPSERT, ctx);
    expect(eachOnce(outcomes, input)).toBe(true);
    expect(outcomes[2]).toMatchObject({ outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE' });
    expect(outcomes[2]?.message).toMatch(/line 3 of invoices.csv/);
    expect([...account().invoices.values()].filter((i) => i.externalId === 'inv-1')).toHaveLength(1);
  });

  it('rejects a record whose externalId several service invoices carry', async () => {
    const { ctx, client, account } = await strategySandbox();
    const twice = invoice(7);
    await client.createInvoicesBulk(1001, [twice.payload, twice.payload]);
    const outcomes = await syncInvoicesChunk([invoice(7, { contactName: 'New' })], UPSERT, ctx);
    expect(outcomes[0]).toMatchObject({ outcome: 'rejected', code: 'AMBIGUOUS_TARGET' });
    const ids = [...account().invoices.values()].filter((i) => i.externalId === 'inv-7').map((i) => i.id);
    expect(outcomes[0]?.message).toContain(ids.join(', '));
  });

  it('after an ambiguous PATCH re-reads and compares instead of resending', async () => {
    const { ctx, clock, account, requests } = await strategySandbox({
      script: [{ op: 'updateInvoice', fault: 'commit-then-500' }],
    });
    await syncInvoicesChunk([invoice(1)], UPSERT, ctx);
    const outcomes = await syncInvoicesChunk([invoice(1, { contactName: 'Applied once' })], UPSERT, ctx);
    expect(outcomes[0]).toMatchObject({
      outcome: 'updated',
      message: expect.stringMatching(/confirmed by a re-read/),
    });
    expect(requests('updateInvoice')).toEqual({ 500: 1 });
    expect(clock.sleeps).toEqual([1_000]);
    expect([...account().invoices.values()].find((i) => i.externalId === 'inv-1')?.contactName).toBe(
      'Applied once',
    );
  });

  it('after a PATCH that failed before applying, resends it once the re-read shows it missing', async () => {
    const { ctx, account, requests } = await strategySandbox({
      script: [{ op: 'updateInvoice', fault: '500' }],
    });
    await syncInvoicesChunk([invoice(1)], UPSERT, ctx);
    const outcomes = await syncInvoicesChunk([invoice(1, { note: 'second try' })], UPSERT, ctx);
    expect(outcomes[0]).toMatchObject({ outcome: 'updated', message: 'changed: note' });
    expect(requests('updateInvoice')).toEqual({ 500: 1, 200: 1 });
    expect([...account().invoices.values()].find((i) => i.externalId === 'inv-1')?.note).toBe('second try');
  });
});
