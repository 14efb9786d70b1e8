import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { checkRequestLimits, splitExternalIds } from '../../../src/client/limits.js';
import { thrownBy } from '../../support/thrown.js';

const ids = (n: number, prefix = 'ext-') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

const refusal = (fn: () => unknown) => thrownBy(ApiError, fn);

describe('checkRequestLimits', () => {
  it('accepts 1 and 1000 bulk items', () => {
    expect(() =>
      checkRequestLimits('createTransactionsBulk', 1, { bankAccountId: 1, transactions: [{}] }, undefined),
    ).not.toThrow();
    expect(() =>
      checkRequestLimits('createInvoicesBulk', 1, { invoices: ids(1000) }, undefined),
    ).not.toThrow();
  });

  it.each([
    ['createTransactionsBulk', (items: unknown[]) => ({ bankAccountId: 1, transactions: items })],
    ['createInvoicesBulk', (items: unknown[]) => ({ invoices: items })],
    ['createPlansBulk', (items: unknown[]) => items],
    ['checkTransactionsExist', (items: unknown[]) => ({ bankAccountId: 1, externalIds: items })],
  ] as const)('%s refuses 1001 and 0 items', (operation, body) => {
    const tooMany = refusal(() => checkRequestLimits(operation, 7, body(ids(1001)), undefined));
    expect(tooMany).toMatchObject({ kind: 'refused', code: 'BULK_LIMIT_EXCEEDED', operation, accountId: 7 });
    expect(tooMany.message).toMatch(/1001 items.*at most 1000/);
    const none = refusal(() => checkRequestLimits(operation, 7, body([]), undefined));
    expect(none).toMatchObject({ kind: 'refused', code: 'EMPTY_BULK' });
  });

  it('refuses an existence check with an external ID over 255 characters', () => {
    const error = refusal(() =>
      checkRequestLimits(
        'checkTransactionsExist',
        1,
        { bankAccountId: 1, externalIds: ['ok', 'x'.repeat(256)] },
        undefined,
      ),
    );
    expect(error).toMatchObject({ code: 'INVALID_EXTERNAL_ID' });
    expect(error.message).toMatch(/#1 has 256 characters/);
  });

  it('refuses an invoice filter of more than 100 values or over-long values', () => {
    expect(
      refusal(() => checkRequestLimits('listInvoices', 1, undefined, { externalId: ids(101) })).code,
    ).toBe('TOO_MANY_EXTERNAL_IDS');
    expect(
      refusal(() => checkRequestLimits('listInvoices', 1, undefined, { externalId: 'y'.repeat(256) })).code,
    ).toBe('INVALID_EXTERNAL_ID');
    expect(() => checkRequestLimits('listInvoices', 1, undefined, { externalId: ids(100) })).not.toThrow();
  });
});

describe('splitExternalIds', () => {
  it('splits into groups of at most 100', () => {
    const groups = splitExternalIds('listInvoices', 1, ids(250));
    expect(groups.map((g) => g.length)).toEqual([100, 100, 50]);
    expect(groups.flat()).toEqual(ids(250));
  });

  it('drops duplicates before splitting', () => {
    expect(splitExternalIds('listInvoices', 1, ['a', 'b', 'a'])).toEqual([['a', 'b']]);
  });

  it('accepts 255 characters and refuses 256 for the whole lookup', () => {
    expect(splitExternalIds('listInvoices', 1, ['z'.repeat(255)])).toEqual([['z'.repeat(255)]]);
    const error = refusal(() => splitExternalIds('listInvoices', 1, [...ids(150), 'z'.repeat(256)]));
    expect(error).toMatchObject({ kind: 'refused', code: 'INVALID_EXTERNAL_ID', accountId: 1 });
  });

  it('refuses empty IDs', () => {
    expect(refusal(() => splitExternalIds('listInvoices', 1, ['a', ''])).code).toBe('INVALID_EXTERNAL_ID');
  });
});
