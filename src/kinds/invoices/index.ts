import { InvoiceCreate } from '../../contract/index.js';
import { type KindDefinition, NO_CHUNK_SETTINGS } from '../definition.js';
import { INVOICE_FIELDS } from './fields.js';
import { heldInvoices } from './held.js';
import { invoiceScope } from './reconcile.js';
import { syncInvoicesChunk } from './strategy.js';

export const invoices: KindDefinition<InvoiceCreate> = {
  chunk: NO_CHUNK_SETTINGS,
  description: 'sales and purchase invoices, upserted by externalId (`mode`, `emptyCellClears`)',
  fields: INVOICE_FIELDS,
  create: InvoiceCreate,
  amountField: 'totalGrossAmount',
  identityFields: ['contactName', 'invoiceDate', 'invoiceNumber', 'invoiceType'],
  sendsExternalId: true,
  sync: syncInvoicesChunk,
  predict: heldInvoices,
  reconcile: (_feed, ctx) => invoiceScope(ctx),
};
