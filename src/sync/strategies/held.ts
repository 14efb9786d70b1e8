import type { MappedRecord } from '../../sources/record.js';
import type { ChunkSettings } from '../chunk-settings.js';
import type { ChunkContext } from '../ports.js';
import { changedFields } from './field-diff.js';
import { type InvoiceRecord, lookupInvoices } from './invoice-bulk.js';
import { INVOICE_PATCH_RULES } from './invoices.js';

/** Why a dry run counts a record as skipped; undefined: the real run would send it. */
export type HeldVerdict = { serviceId?: number; message: string } | undefined;

const DRY = '(dry run: read-only check)';
const nothingHeld = (): HeldVerdict => undefined;

/**
 * Transactions: an externalId the target bank account already holds is skipped (the same
 * existence check the real run starts with); without a target yet, everything would be sent.
 */
export async function heldTransactions(
  records: readonly MappedRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<(record: MappedRecord) => HeldVerdict> {
  if (settings.bankAccountId === undefined || records.length === 0) return nothingHeld;
  const existing = await ctx.client.checkTransactionsExist(
    ctx.accountId,
    settings.bankAccountId,
    records.map((r) => r.externalId),
    { signal: ctx.signal },
  );
  const ids = new Map(existing.map((e) => [e.externalId, e.transactionId]));
  return (r) => {
    if (!ids.has(r.externalId)) return undefined;
    const serviceId = ids.get(r.externalId);
    return { ...(serviceId === undefined ? {} : { serviceId }), message: `already in the service ${DRY}` };
  };
}

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
