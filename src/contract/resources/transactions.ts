import * as z from 'zod';
import { CURRENCY_CODES } from '../currencies.js';
import { PageQuery } from '../envelopes.js';
import { LIMITS } from '../limits.js';
import { boundedNumber, int64, isoDate, queryInt } from '../primitives.js';
import { BulkItemError } from './bulk.js';

/**
 * Transaction object (fields not shown by the spec; pinned by our assumption table):
 * externalId optional (<= 255), bookingDate required, amount required (same range as invoices).
 */
const transactionFields = {
  externalId: z.string().min(1).max(LIMITS.externalIdMaxLength).optional(),
  bookingDate: isoDate,
  valueDate: isoDate.optional(),
  amount: boundedNumber(LIMITS.amount.min, LIMITS.amount.max),
  currency: z.enum(CURRENCY_CODES).optional(),
  purpose: z.string().optional(),
  counterpartyName: z.string().optional(),
  counterpartyIban: z.string().optional(),
  categoryId: int64.nullable().optional(),
};

export const TransactionInput = z.strictObject(transactionFields);
export type TransactionInput = z.output<typeof TransactionInput>;

/** Assumption: an update takes the same fields but externalId, all optional. */
const { externalId: _externalId, ...updatableFields } = transactionFields;
export const TransactionUpdate = z.strictObject(updatableFields).partial();
export type TransactionUpdate = z.output<typeof TransactionUpdate>;

export const Transaction = z.looseObject({
  id: int64,
  bankAccountId: int64.optional(),
  externalId: z.string().nullable().optional(),
  bookingDate: z.string(),
  valueDate: z.string().nullable().optional(),
  amount: z.number(),
  currency: z.string().nullable().optional(),
  purpose: z.string().nullable().optional(),
  counterpartyName: z.string().nullable().optional(),
  counterpartyIban: z.string().nullable().optional(),
  categoryId: int64.nullable().optional(),
});
export type Transaction = z.output<typeof Transaction>;

export const CreateTransactionRequest = z.strictObject({
  bankAccountId: int64,
  transaction: TransactionInput,
});
export type CreateTransactionRequest = z.output<typeof CreateTransactionRequest>;

export const BulkTransactionsRequest = z.strictObject({
  bankAccountId: int64,
  transactions: z.array(TransactionInput).min(LIMITS.bulkItems.min).max(LIMITS.bulkItems.max),
});
export type BulkTransactionsRequest = z.output<typeof BulkTransactionsRequest>;

export const CreatedTransaction = z.looseObject({
  externalId: z.string(),
  transactionId: int64,
  index: z.int(),
});
export type CreatedTransaction = z.output<typeof CreatedTransaction>;

/** Assumption (entries not shown): the skipped item's externalId and index, and the existing id. */
export const SkippedTransaction = z.looseObject({
  externalId: z.string(),
  index: z.int().optional(),
  transactionId: int64.optional(),
});
export type SkippedTransaction = z.output<typeof SkippedTransaction>;

export const BulkTransactionsResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  createdCount: z.int(),
  created: z.array(CreatedTransaction),
  failedCount: z.int(),
  errors: z.array(BulkItemError),
  skippedCount: z.int(),
  skipped: z.array(SkippedTransaction),
});
export type BulkTransactionsResponse = z.output<typeof BulkTransactionsResponse>;

export const ExistsRequest = z.strictObject({
  bankAccountId: int64,
  externalIds: z
    .array(z.string().min(1).max(LIMITS.externalIdMaxLength))
    .min(LIMITS.bulkItems.min)
    .max(LIMITS.bulkItems.max),
});
export type ExistsRequest = z.output<typeof ExistsRequest>;

/**
 * `data` of the existence check (not shown). Assumption: either the external IDs that exist, or
 * objects carrying `externalId` (optionally `exists` and an id). Both normalise to ExistingTransaction.
 */
const ExistsEntry = z.union([
  z.string(),
  z.looseObject({
    externalId: z.string(),
    exists: z.boolean().optional(),
    id: int64.optional(),
    transactionId: int64.optional(),
  }),
]);
export const ExistsResponse = z.looseObject({ success: z.boolean(), data: z.array(ExistsEntry) });
export type ExistsResponse = z.output<typeof ExistsResponse>;

export interface ExistingTransaction {
  externalId: string;
  transactionId?: number;
}

/** The one normalised view of an existence-check answer: only the IDs that exist. */
export function existingTransactions(response: ExistsResponse): ExistingTransaction[] {
  const existing: ExistingTransaction[] = [];
  for (const entry of response.data) {
    if (typeof entry === 'string') existing.push({ externalId: entry });
    else if (entry.exists !== false) {
      const transactionId = entry.transactionId ?? entry.id;
      existing.push(
        transactionId === undefined
          ? { externalId: entry.externalId }
          : { externalId: entry.externalId, transactionId },
      );
    }
  }
  return existing;
}

export const ListTransactionsQuery = PageQuery.extend({ bankAccountId: queryInt() });
export type ListTransactionsQuery = z.output<typeof ListTransactionsQuery>;
