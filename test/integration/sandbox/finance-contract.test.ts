import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATIONS, type OperationName } from '../../../src/contract/index.js';
import { withSandbox } from '../../support/sandbox.js';
import { bankAccountBody, bankId, DEMO, invoiceBody, providerSeed, tx } from './finance-fixtures.js';

let sb: Awaited<ReturnType<typeof withSandbox>>;
beforeAll(async () => {
  sb = await withSandbox({ seed: providerSeed() });
});
afterAll(() => sb.close());

/** Calls an operation and asserts 200 plus a body the client's (contract) response schema accepts. */
async function conforms(op: OperationName, path: string, body?: unknown): Promise<{ data: { id: number } }> {
  const res = await sb.call(OPERATIONS[op].method, path, { account: DEMO, body });
  expect(res.status, `${op}: ${JSON.stringify(res.body)}`).toBe(200);
  const parsed = OPERATIONS[op].response.safeParse(res.body);
  expect(parsed.success ? [] : parsed.error.issues, op).toEqual([]);
  return res.body as { data: { id: number } };
}

it('answers every bank-account, transaction and invoice operation in the shape the contract parses', async () => {
  const partner = await bankId(sb, 'partner');
  await conforms('listBankAccounts', '/bank-accounts');
  const bank = await conforms(
    'createBankAccount',
    '/bank-accounts',
    bankAccountBody({ balanceReference: 1, balanceDate: '2026-01-01' }),
  );
  await conforms('getBankAccount', `/bank-accounts/${bank.data.id}`);
  await conforms('updateBankAccount', `/bank-accounts/${bank.data.id}`, { visible: false });
  await conforms('convertBankAccount', `/bank-accounts/${await bankId(sb, 'offline')}/convert`, {
    targetProvider: 'API',
  });
  const t = await conforms('createTransaction', '/bank-account-transactions', {
    bankAccountId: partner,
    transaction: tx('a'),
  });
  await conforms('createTransactionsBulk', '/bank-account-transactions/bulk', {
    bankAccountId: partner,
    transactions: [tx('a'), tx(undefined), tx('c', { amount: 'x' })],
  });
  await conforms('checkTransactionsExist', '/bank-account-transactions/exists', {
    bankAccountId: partner,
    externalIds: ['a', 'z'],
  });
  await conforms('listTransactions', `/bank-account-transactions?bankAccountId=${partner}`);
  // What the sync reads of a held transaction to compare a booking (docs/contract.md): as created.
  const got = await conforms('getTransaction', `/bank-account-transactions/${t.data.id}`);
  expect(OPERATIONS.getTransaction.response.parse(got).data).toMatchObject({
    id: t.data.id,
    externalId: 'a',
    amount: -12.5,
    bookingDate: '2026-03-02',
  });
  await conforms('updateTransaction', `/bank-account-transactions/${t.data.id}`, { amount: 3 });
  await conforms('listBankAccountBalances', `/bank-accounts/${partner}/balances`);
  await conforms('deleteBankAccount', `/bank-accounts/${bank.data.id}`);
  const invoice = await conforms('createInvoice', '/invoices', invoiceBody());
  await conforms('createInvoicesBulk', '/invoices/bulk', { invoices: [invoiceBody(), { x: 1 }] });
  await conforms('listInvoices', '/invoices?invoiceTypeFilter=SALE');
  await conforms('getInvoice', `/invoices/${invoice.data.id}?invoiceTypeFilter=SALE`);
  await conforms('updateInvoice', `/invoices/${invoice.data.id}?invoiceTypeFilter=SALE`, { note: null });
  await conforms('deleteInvoice', `/invoices/${invoice.data.id}?invoiceTypeFilter=SALE`);
});
