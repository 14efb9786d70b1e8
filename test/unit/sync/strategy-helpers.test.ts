import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/index.js';
import { BankAccountUpdate, InvoiceUpdate } from '../../../src/contract/index.js';
import { BANK_ACCOUNT_FIELDS } from '../../../src/kinds/bank-accounts/fields.js';
import { INVOICE_FIELDS } from '../../../src/kinds/invoices/fields.js';
import { isolationProgress, sendIsolating } from '../../../src/sync/isolate.js';
import { changedFields, patchRules, sameValue } from '../../../src/sync/writes/field-diff.js';

const refused = (status: number, code: string, indexes: number[]) =>
  new ApiError({
    kind: 'service',
    code,
    status,
    operation: 'createPlansBulk',
    message: `${status} ${code}`,
    causes: indexes.map((index) => ({ index, field: 'categoryId', message: 'no such category' })),
  });

describe('sendIsolating', () => {
  it('isolates a 404 whose causes name items, with the 404 code', async () => {
    const sent: number[][] = [];
    const result = await sendIsolating([0, 1, 2, 3], async (batch) => {
      if (batch.includes(2)) throw refused(404, 'CATEGORY_NOT_FOUND', [batch.indexOf(2)]);
      sent.push(batch);
      return batch.length;
    });
    expect(result.rejected).toEqual([
      { item: 2, code: 'CATEGORY_NOT_FOUND', message: 'categoryId: no such category' },
    ]);
    expect(sent).toEqual([[0, 1, 3]]);
  });

  it('passes a 404 without item indexes on (it concerns the whole request), keeping transactions behaviour', async () => {
    const progress = isolationProgress<number, number>();
    const error = refused(404, 'BANK_ACCOUNT_NOT_FOUND', []);
    await expect(
      sendIsolating(
        [1, 2],
        async () => {
          throw error;
        },
        progress,
      ),
    ).rejects.toBe(error);
    expect(progress).toMatchObject({ failed: [1, 2], unsent: [], sent: [] });
  });

  it('reports what was sent, which batch failed and what was never sent when a later request fails', async () => {
    const progress = isolationProgress<number, string>();
    const lost = new ApiError({
      kind: 'ambiguous_write',
      code: 'AMBIGUOUS_WRITE',
      operation: 'x',
      message: 'lost',
    });
    let calls = 0;
    const run = sendIsolating(
      [0, 1, 2, 3, 4, 5],
      async () => {
        calls += 1;
        if (calls === 1) throw refused(400, 'INVALID_REQUEST', []); // bisect: [0,1,2] and [3,4,5]
        if (calls === 2) return 'ok';
        throw lost;
      },
      progress,
    );
    await expect(run).rejects.toBe(lost);
    expect(progress.sent).toEqual([{ items: [0, 1, 2], response: 'ok' }]);
    expect(progress.failed).toEqual([3, 4, 5]);
    expect(progress.unsent).toEqual([]);
  });
});

describe('field diff', () => {
  it('derives patchable and nullable fields from the contract', () => {
    const invoices = patchRules(INVOICE_FIELDS, InvoiceUpdate);
    expect(invoices.fields).not.toContain('externalId');
    expect(invoices.fields).not.toContain('invoiceType');
    expect([...invoices.nullable].sort()).toEqual(['categoryId', 'note', 'openAmount', 'paidDate']);
    const banks = patchRules(BANK_ACCOUNT_FIELDS, BankAccountUpdate, ['externalId']);
    expect(banks.fields).not.toContain('externalId');
    expect(banks.nullable.size).toBe(0);
  });

  it('compares amounts as numbers, dates as yyyy-MM-dd, absent as null', () => {
    expect(sameValue('amount', 10.5, 10.5)).toBe(true);
    expect(sameValue('amount', 10.5, 10.51)).toBe(false);
    expect(sameValue('date', '2026-03-01', '2026-03-01T00:00:00Z')).toBe(true);
    expect(sameValue('date', '2026-03-01', '2026-03-02')).toBe(false);
    expect(sameValue('string', null, undefined)).toBe(true);
    expect(sameValue('string', 'a', null)).toBe(false);
    expect(sameValue('integer', 0, null)).toBe(false);
  });

  it('sends null for a mapped nullable field the record lacks only when emptyCellClears', () => {
    const rules = patchRules(INVOICE_FIELDS, InvoiceUpdate);
    const held = { note: 'x', paidDate: '2026-01-01', invoiceDate: '2026-01-01', contactName: 'A' };
    const wanted = { contactName: 'A' };
    const mappedFields = ['note', 'paidDate', 'invoiceDate', 'contactName'];
    expect(
      changedFields(wanted, held, rules, { mode: 'upsert', emptyCellClears: false, mappedFields }),
    ).toEqual({});
    expect(
      changedFields(wanted, held, rules, { mode: 'upsert', emptyCellClears: true, mappedFields }),
    ).toEqual({
      note: null,
      paidDate: null,
    });
  });
});
