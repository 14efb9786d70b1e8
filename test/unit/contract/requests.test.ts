import { describe, expect, it } from 'vitest';
import {
  BankAccountCreate,
  BulkTransactionsRequest,
  CreateUserRequest,
  ExistsRequest,
  InvoiceCreate,
  InvoiceUpdate,
  ListInvoicesQuery,
  PageQuery,
  PlanRequest,
  TransactionInput,
} from '../../../src/contract/index.js';

const tx = { bookingDate: '2026-02-05', amount: -22.59 };
const invoice = {
  invoiceNumber: 'RE-1',
  contactName: 'ACME',
  totalGrossAmount: 119,
  invoiceType: 'SALES_INVOICE',
};

describe('request schemas are strict', () => {
  it('accepts a minimal valid transaction and refuses unknown keys', () => {
    expect(TransactionInput.safeParse(tx).success).toBe(true);
    const result = TransactionInput.safeParse({ ...tx, bookingdate: '2026-02-05' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('refuses impossible calendar dates and non-ISO formats', () => {
    expect(TransactionInput.safeParse({ ...tx, bookingDate: '2026-02-30' }).success).toBe(false);
    expect(TransactionInput.safeParse({ ...tx, bookingDate: '05.02.2026' }).success).toBe(false);
    expect(TransactionInput.safeParse({ ...tx, bookingDate: '2024-02-29' }).success).toBe(true);
  });

  it('enforces the amount range of the spec at its exact bounds', () => {
    expect(InvoiceCreate.safeParse({ ...invoice, totalGrossAmount: 1e16 }).success).toBe(true);
    expect(InvoiceCreate.safeParse({ ...invoice, totalGrossAmount: -1e16 }).success).toBe(true);
    expect(InvoiceCreate.safeParse({ ...invoice, totalGrossAmount: 1e16 + 2 }).success).toBe(false);
    expect(InvoiceCreate.safeParse({ ...invoice, totalGrossAmount: Number.NaN }).success).toBe(false);
  });

  it('requires non-empty invoiceNumber and contactName and a known invoiceType', () => {
    expect(InvoiceCreate.safeParse({ ...invoice, invoiceNumber: '' }).success).toBe(false);
    expect(InvoiceCreate.safeParse({ ...invoice, invoiceType: 'SALE' }).success).toBe(false);
    expect(InvoiceCreate.safeParse({ ...invoice, invoiceStatus: 'RELEASED' }).success).toBe(true);
  });

  it('refuses externalId and invoiceType on invoice updates', () => {
    expect(InvoiceUpdate.safeParse({ note: null }).success).toBe(true);
    expect(InvoiceUpdate.safeParse({ externalId: 'x' }).success).toBe(false);
    expect(InvoiceUpdate.safeParse({ invoiceType: 'SALES_INVOICE' }).success).toBe(false);
  });

  it('limits bulk requests and existence checks to 1..1000 items', () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ ...tx, externalId: `e${i}` }));
    expect(BulkTransactionsRequest.safeParse({ bankAccountId: 1, transactions: items(1000) }).success).toBe(
      true,
    );
    expect(BulkTransactionsRequest.safeParse({ bankAccountId: 1, transactions: items(1001) }).success).toBe(
      false,
    );
    expect(BulkTransactionsRequest.safeParse({ bankAccountId: 1, transactions: [] }).success).toBe(false);
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `e${i}`);
    expect(ExistsRequest.safeParse({ bankAccountId: 1, externalIds: ids(1000) }).success).toBe(true);
    expect(ExistsRequest.safeParse({ bankAccountId: 1, externalIds: ids(1001) }).success).toBe(false);
  });

  it('limits the invoice externalId filter to 100 values of at most 255 characters, single or repeated', () => {
    const ok = ListInvoicesQuery.safeParse({ invoiceTypeFilter: 'SALE', externalId: 'a' });
    expect(ok.success && ok.data.externalId).toEqual(['a']);
    const values = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`);
    expect(ListInvoicesQuery.safeParse({ invoiceTypeFilter: 'SALE', externalId: values(100) }).success).toBe(
      true,
    );
    expect(ListInvoicesQuery.safeParse({ invoiceTypeFilter: 'SALE', externalId: values(101) }).success).toBe(
      false,
    );
    expect(
      ListInvoicesQuery.safeParse({ invoiceTypeFilter: 'SALE', externalId: ['x'.repeat(256)] }).success,
    ).toBe(false);
    expect(ListInvoicesQuery.safeParse({ externalId: 'a' }).success).toBe(false);
  });

  it('coerces and bounds page parameters from query strings', () => {
    expect(PageQuery.parse({ page: '2', pageSize: '1000' })).toEqual({ page: 2, pageSize: 1000 });
    expect(PageQuery.safeParse({ pageSize: '0' }).success).toBe(false);
    expect(PageQuery.safeParse({ pageSize: '1001' }).success).toBe(false);
    expect(PageQuery.safeParse({ page: '-1' }).success).toBe(false);
    expect(PageQuery.safeParse({ page: '1.5' }).success).toBe(false);
    expect(PageQuery.safeParse({ pagesize: '10' }).success).toBe(false);
  });

  it('checks plan name length and the MONTHLY/WEEKLY date rules', () => {
    const plan = { amount: -500, period: 'MONTHLY', date: '2026-03-01', type: 'ONE_TIME', name: 'Rent' };
    expect(PlanRequest.safeParse(plan).success).toBe(true);
    expect(PlanRequest.safeParse({ ...plan, date: '2026-03-02' }).success).toBe(false);
    expect(PlanRequest.safeParse({ ...plan, period: 'WEEKLY', date: '2026-03-02' }).success).toBe(true); // a Monday
    expect(PlanRequest.safeParse({ ...plan, period: 'WEEKLY', date: '2026-03-01' }).success).toBe(false); // a Sunday
    expect(PlanRequest.safeParse({ ...plan, name: 'x'.repeat(101) }).success).toBe(false);
    expect(PlanRequest.safeParse({ ...plan, name: '' }).success).toBe(false);
    expect(PlanRequest.safeParse({ ...plan, type: 'RECURRING' }).success).toBe(false);
  });

  it('validates bank accounts: currency list, bankName length, balanceReference range', () => {
    const bank = {
      accountCurrency: 'EUR',
      accountName: 'Main',
      bankName: 'Sparkasse',
      accountType: 'CHECKING',
    };
    expect(BankAccountCreate.safeParse(bank).success).toBe(true);
    expect(BankAccountCreate.safeParse({ ...bank, accountCurrency: 'BTC' }).success).toBe(true);
    expect(BankAccountCreate.safeParse({ ...bank, accountCurrency: 'EURO' }).success).toBe(false);
    expect(BankAccountCreate.safeParse({ ...bank, bankName: 'b'.repeat(256) }).success).toBe(false);
    expect(BankAccountCreate.safeParse({ ...bank, balanceReference: 1e12 }).success).toBe(true);
    expect(BankAccountCreate.safeParse({ ...bank, balanceReference: 1e12 + 1 }).success).toBe(false);
  });

  it('refuses ids outside the safe integer range instead of rounding them', () => {
    const user = {
      companyId: 1,
      role: 'USER',
      externalId: 'u',
      email: 'u@example.com',
      firstName: 'U',
      lastName: 'V',
    };
    expect(CreateUserRequest.safeParse(user).success).toBe(true);
    expect(CreateUserRequest.safeParse({ ...user, companyId: 2 ** 53 }).success).toBe(false);
    expect(CreateUserRequest.safeParse({ ...user, email: 'not-an-email' }).success).toBe(false);
  });
});
