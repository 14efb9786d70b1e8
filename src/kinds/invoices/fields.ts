import type { KindFields } from '../../sources/field-spec.js';

/** Also what an invoice PATCH compares by (strategy.ts). */
export const INVOICE_FIELDS: KindFields = {
  externalId: { type: 'string' },
  invoiceType: { type: 'string', required: true },
  invoiceNumber: { type: 'string', required: true },
  contactName: { type: 'string', required: true },
  totalGrossAmount: { type: 'amount', required: true },
  invoiceStatus: { type: 'string' },
  openAmount: { type: 'amount' },
  invoiceDate: { type: 'date' },
  dueDate: { type: 'date' },
  paidDate: { type: 'date' },
  note: { type: 'string' },
  categoryId: { type: 'integer' },
};
