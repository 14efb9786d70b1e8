import type { ChunkSettings } from '../../sync/chunk-settings.js';
import { DRY, type HeldVerdict, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';
import { changedFields } from '../../sync/writes/field-diff.js';
import { type InvoiceRecord, lookupInvoices } from './bulk.js';
import { INVOICE_PATCH_RULES } from './strategy.js';

/**
 * Invoices: a single invoice with the externalId and no field that differs is skipped (mode
 * insert: any existing one); updates and what the real run would refuse count as would-send.
 */
export async function heldInvoices(
  records: readonly InvoiceRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<(record: InvoiceRecord) => HeldVerdict> {
  if (records.length === 0) return nothingHeld;
  const found = await lookupInvoices(ctx, records);
  return (record) => {
    const matches = found.get(record.externalId) ?? [];
    const [invoice] = matches;
    if (matches.length !== 1 || !invoice) return undefined;
    if (settings.mode === 'insert')
      return { serviceId: invoice.id, message: `exists; feed mode insert ${DRY}` };
    if (invoice.invoiceType !== record.payload.invoiceType) return undefined;
    const patch = changedFields(record.payload, invoice, INVOICE_PATCH_RULES, settings);
    return Object.keys(patch).length === 0
      ? { serviceId: invoice.id, message: `unchanged ${DRY}` }
      : undefined;
  };
}
