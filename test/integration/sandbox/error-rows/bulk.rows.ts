import { bankId, DEMO, invoiceBody, plantTransaction, tx } from '../finance-fixtures.js';
import type { ErrorRow } from './types.js';

/** Rows of the spec's error table for transaction writes and the 1000-item bulk limit. */
export const rows: ErrorRow[] = [
  {
    spec: { operation: 'Transaction writes', status: 409, error: 'BANK_ACCOUNT_NOT_MODIFIABLE' },
    how: 'single create on an ONLINE account',
    provoke: async (sb) =>
      sb.call('POST', '/bank-account-transactions', {
        account: DEMO,
        body: { bankAccountId: await bankId(sb, 'online'), transaction: tx('t-1') },
      }),
  },
  {
    spec: { operation: 'Transaction writes', status: 409, error: 'BANK_ACCOUNT_NOT_MODIFIABLE' },
    how: 'bulk create on an ONLINE account',
    provoke: async (sb) =>
      sb.call('POST', '/bank-account-transactions/bulk', {
        account: DEMO,
        body: { bankAccountId: await bankId(sb, 'online'), transactions: [tx('t-1')] },
      }),
  },
  {
    spec: { operation: 'Transaction writes', status: 409, error: 'BANK_ACCOUNT_NOT_MODIFIABLE' },
    how: 'update of a transaction held by an ONLINE account',
    provoke: async (sb) => {
      // Bank-synced transactions cannot be created through the API; place one directly in the state.
      const { id } = plantTransaction(sb, await bankId(sb, 'online'), 'bank-1');
      return sb.call('PATCH', `/bank-account-transactions/${id}`, { account: DEMO, body: { amount: 11 } });
    },
  },
  {
    spec: { operation: 'Bulk create (invoices, transactions)', status: 400, error: '(code not shown)' },
    expectError: 'BULK_LIMIT_EXCEEDED',
    how: '1001 transactions',
    provoke: async (sb) =>
      sb.call('POST', '/bank-account-transactions/bulk', {
        account: DEMO,
        body: {
          bankAccountId: await bankId(sb, 'main'),
          transactions: Array.from({ length: 1001 }, (_, i) => tx(`t-${i}`)),
        },
      }),
  },
  {
    spec: { operation: 'Bulk create (invoices, transactions)', status: 400, error: '(code not shown)' },
    expectError: 'BULK_LIMIT_EXCEEDED',
    how: '1001 invoices',
    provoke: (sb) =>
      sb.call('POST', '/invoices/bulk', {
        account: DEMO,
        body: { invoices: Array.from({ length: 1001 }, (_, i) => invoiceBody({ externalId: `i-${i}` })) },
      }),
  },
];
