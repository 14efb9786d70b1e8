import { describe, expect, it } from 'vitest';
import { expandPath, OPERATIONS, resolveOperations } from '../../../src/contract/index.js';

describe('operation table', () => {
  it('holds the paths the spec shows, verbatim', () => {
    expect(OPERATIONS.checkTransactionsExist).toMatchObject({
      method: 'POST',
      path: '/bank-account-transactions/exists',
    });
    expect(OPERATIONS.createInvoicesBulk).toMatchObject({ method: 'POST', path: '/invoices/bulk' });
    expect(OPERATIONS.ssoInit).toMatchObject({ method: 'POST', path: '/authentication/sso/init' });
    expect(OPERATIONS.updateInvoice).toMatchObject({ method: 'PATCH', path: '/invoices/{id}' });
  });

  it('sends X-Account-Id everywhere except account creation and listing', () => {
    const without = Object.entries(OPERATIONS)
      .filter(([, op]) => !op.accountHeader)
      .map(([name]) => name);
    expect(without.sort()).toEqual(['createAccount', 'listAccounts']);
  });

  it('has a unique method+path per operation', () => {
    const keys = Object.values(OPERATIONS).map((op) => `${op.method} ${op.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lets a deployment move a path without touching the rest', () => {
    const table = resolveOperations({ createTransactionsBulk: { path: '/tx/bulk' } });
    expect(table.createTransactionsBulk.path).toBe('/tx/bulk');
    expect(table.createTransactionsBulk.method).toBe('POST');
    expect(table.listInvoices.path).toBe('/invoices');
    expect(() => resolveOperations({ nope: { path: '/x' } } as never)).toThrow(/unknown operation "nope"/);
  });

  it('expands and encodes path parameters, and names a missing one', () => {
    expect(expandPath('/invoices/{id}', { id: 42 })).toBe('/invoices/42');
    expect(expandPath('/users/{userId}', { userId: 'a/b' })).toBe('/users/a%2Fb');
    expect(() => expandPath('/invoices/{id}', {})).toThrow(/"id" missing/);
  });
});
