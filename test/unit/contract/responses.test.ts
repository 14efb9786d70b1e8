import { describe, expect, it } from 'vitest';
import {
  BankAccount,
  BulkTransactionsResponse,
  ExceptionDetails,
  ExistsResponse,
  existingTransactions,
  Invoice,
  pageOf,
  Transaction,
} from '../../../src/contract/index.js';

describe('response schemas are tolerant', () => {
  it('keeps unknown fields and accepts enum values the contract does not know yet', () => {
    const parsed = BankAccount.parse({
      id: 7,
      accountCurrency: 'EUR',
      accountName: 'Main',
      bankName: 'B',
      accountType: 'CRYPTO_WALLET',
      visible: true,
      provider: 'FUTURE_PROVIDER',
      brandNewField: { nested: 1 },
    });
    expect(parsed.accountType).toBe('CRYPTO_WALLET');
    expect(parsed.provider).toBe('FUTURE_PROVIDER');
    expect((parsed as Record<string, unknown>).brandNewField).toEqual({ nested: 1 });
  });

  it('still refuses a response missing a field the client relies on', () => {
    expect(
      Invoice.safeParse({
        invoiceNumber: 'x',
        contactName: 'y',
        totalGrossAmount: 1,
        invoiceType: 'SALES_INVOICE',
      }).success,
    ).toBe(false);
  });

  it('parses the pagination envelope around any item schema', () => {
    const page = pageOf(Invoice).parse({
      success: true,
      message: 'OK',
      number: 0,
      size: 50,
      totalElements: 1,
      totalPages: 1,
      data: [
        { id: 1, invoiceNumber: 'x', contactName: 'y', totalGrossAmount: 1, invoiceType: 'SALES_INVOICE' },
      ],
    });
    expect(page.data[0]?.id).toBe(1);
  });

  it('parses ExceptionDetails with and without causes', () => {
    expect(ExceptionDetails.parse({ timestamp: 1, error: 'X', message: 'm' }).causes).toBeUndefined();
    const withCauses = ExceptionDetails.parse({
      timestamp: 1,
      error: 'X',
      message: 'm',
      causes: [{ field: 'a', weird: true }],
    });
    expect(withCauses.causes?.[0]?.field).toBe('a');
  });

  it('parses a bulk transaction response with created, skipped and errors', () => {
    const parsed = BulkTransactionsResponse.parse({
      success: true,
      message: 'OK',
      createdCount: 1,
      created: [{ externalId: 'a', transactionId: 10, index: 0 }],
      failedCount: 1,
      errors: [{ index: 2, error: 'INVALID_REQUEST', message: 'bad' }],
      skippedCount: 1,
      skipped: [{ externalId: 'b', index: 1 }],
    });
    expect(parsed.created[0]?.transactionId).toBe(10);
    expect(parsed.errors[0]?.index).toBe(2);
  });
});

describe('a transaction in responses (the fields a booking is compared by)', () => {
  it('parses the id, externalId, amount as a number and bookingDate, keeping unknown fields', () => {
    const parsed = Transaction.parse({
      id: 7,
      externalId: 'R-1/#1',
      amount: -4.25,
      bookingDate: '2026-03-02',
      note: 'kept',
    });
    expect(parsed).toMatchObject({ id: 7, externalId: 'R-1/#1', amount: -4.25, bookingDate: '2026-03-02' });
    expect(parsed.note).toBe('kept');
  });

  it('refuses an amount sent as text (the sum of a batch must be exact numbers)', () => {
    expect(Transaction.safeParse({ id: 7, amount: '-4.25', bookingDate: '2026-03-02' }).success).toBe(false);
  });
});

describe('existence check normalisation', () => {
  it('normalises an array of external IDs', () => {
    expect(existingTransactions(ExistsResponse.parse({ success: true, data: ['a', 'b'] }))).toEqual([
      { externalId: 'a' },
      { externalId: 'b' },
    ]);
  });

  it('normalises objects, dropping those that say exists: false and keeping ids', () => {
    const response = ExistsResponse.parse({
      success: true,
      data: [
        { externalId: 'a', exists: true, transactionId: 5 },
        { externalId: 'b', exists: false },
        { externalId: 'c', id: 9 },
      ],
    });
    expect(existingTransactions(response)).toEqual([
      { externalId: 'a', transactionId: 5 },
      { externalId: 'c', transactionId: 9 },
    ]);
  });
});
