import * as z from 'zod';
import { INVOICE_STATUSES, INVOICE_TYPE_FILTERS, INVOICE_TYPES } from '../enums.js';
import { PageQuery } from '../envelopes.js';
import { LIMITS } from '../limits.js';
import { boundedNumber, int64, isoDate, openEnum, repeatable } from '../primitives.js';
import { BulkItemError } from './bulk.js';

const amount = boundedNumber(LIMITS.amount.min, LIMITS.amount.max);

/** Fields an invoice update may carry; creation adds externalId and invoiceType. */
const invoiceFields = {
  invoiceDate: isoDate.optional(),
  dueDate: isoDate.optional(),
  paidDate: isoDate.nullable().optional(),
  invoiceNumber: z.string().min(1),
  contactName: z.string().min(1),
  totalGrossAmount: amount,
  invoiceStatus: z.enum(INVOICE_STATUSES).optional(),
  openAmount: amount.nullable().optional(),
  note: z.string().nullable().optional(),
  categoryId: int64.nullable().optional(),
};

export const InvoiceCreate = z.strictObject({
  ...invoiceFields,
  /** Assumption: at most 255 characters, the limit of the externalId list filter. */
  externalId: z.string().min(1).max(LIMITS.externalIdFilter.maxLength).optional(),
  invoiceType: z.enum(INVOICE_TYPES),
});
export type InvoiceCreate = z.output<typeof InvoiceCreate>;

/** PATCH body: every create field but externalId and invoiceType, all optional (unknown keys refused). */
export const InvoiceUpdate = z.strictObject(invoiceFields).partial();
export type InvoiceUpdate = z.output<typeof InvoiceUpdate>;

/**
 * Invoice as returned (fields not shown). Assumption: the create fields plus `id`, and `origin`
 * (`API` for invoices created through the API, `ERP` for the read-only ERP-integration ones).
 */
export const Invoice = z.looseObject({
  id: int64,
  externalId: z.string().nullable().optional(),
  invoiceType: openEnum(INVOICE_TYPES),
  invoiceStatus: openEnum(INVOICE_STATUSES).nullable().optional(),
  invoiceNumber: z.string(),
  contactName: z.string(),
  totalGrossAmount: z.number(),
  openAmount: z.number().nullable().optional(),
  invoiceDate: z.string().nullable().optional(),
  dueDate: z.string().nullable().optional(),
  paidDate: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
  categoryId: int64.nullable().optional(),
  origin: z.string().optional(),
});
export type Invoice = z.output<typeof Invoice>;

export const InvoiceTypeQuery = z.strictObject({ invoiceTypeFilter: z.enum(INVOICE_TYPE_FILTERS) });
export type InvoiceTypeQuery = z.output<typeof InvoiceTypeQuery>;

export const ListInvoicesQuery = PageQuery.extend({
  invoiceTypeFilter: z.enum(INVOICE_TYPE_FILTERS),
  externalId: repeatable(z.string().min(1).max(LIMITS.externalIdFilter.maxLength))
    .check(z.maxLength(LIMITS.externalIdFilter.maxValues))
    .optional(),
});
export type ListInvoicesQuery = z.output<typeof ListInvoicesQuery>;

export const BulkInvoicesRequest = z.strictObject({
  invoices: z.array(InvoiceCreate).min(LIMITS.bulkItems.min).max(LIMITS.bulkItems.max),
});
export type BulkInvoicesRequest = z.output<typeof BulkInvoicesRequest>;

export const BulkInvoicesResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  createdCount: z.int(),
  /** Assumption: ids of the created invoices, in request order of the created items. */
  invoiceIds: z.array(int64),
  failedCount: z.int(),
  errors: z.array(BulkItemError),
});
export type BulkInvoicesResponse = z.output<typeof BulkInvoicesResponse>;
