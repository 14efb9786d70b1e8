import type { MappedRecord } from '../../sources/record.js';
import { outcomeOf } from '../build-outcome.js';
import type { RecordOutcome } from '../outcome.js';
import type { ChunkContext } from '../ports.js';
import { changedFields } from './field-diff.js';
import type { ChunkSettings } from './index.js';
import { type InvoiceRecord, lookupInvoices } from './invoice-bulk.js';
import { INVOICE_PATCH_RULES } from './invoices.js';

/** A dry run's verdict on one chunk: what the real run would leave alone, and what it would send. */
export interface Prediction {
  /** Records the service already holds as they are: the real run would skip them. */
  skipped: RecordOutcome[];
  /** Records the real run would create or update. */
  send: MappedRecord[];
}

const DRY = '(dry run: read-only check)';

/**
 * Predicts a chunk with the same read the real run starts with (existence check, lookup by
 * externalId), so `--dry-run` after a full sync predicts skips instead of "3000 would be sent".
 * Nothing is written. Transactions: an externalId the target bank account already holds is
 * skipped (the target not existing yet: everything would be sent). Invoices: a single invoice with
 * the externalId and no field that differs is skipped (mode insert: any existing one). Other kinds
 * and anything the real run would decide otherwise (updates, rejections) count as would-send.
 */
export async function predictChunk(
  kind: string,
  records: readonly MappedRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<Prediction> {
  let held: (record: MappedRecord) => { serviceId?: number; message: string } | undefined = () => undefined;
  if (kind === 'transactions' && settings.bankAccountId !== undefined && records.length > 0) {
    const existing = await ctx.client.checkTransactionsExist(
      ctx.accountId,
      settings.bankAccountId,
      records.map((r) => r.externalId),
      { signal: ctx.signal },
    );
    const ids = new Map(existing.map((e) => [e.externalId, e.transactionId]));
    held = (r) => {
      if (!ids.has(r.externalId)) return undefined;
      const serviceId = ids.get(r.externalId);
      return { ...(serviceId === undefined ? {} : { serviceId }), message: `already in the service ${DRY}` };
    };
  } else if (kind === 'invoices' && records.length > 0) {
    const found = await lookupInvoices(ctx, records as readonly InvoiceRecord[]);
    held = (r) => {
      const matches = found.get(r.externalId) ?? [];
      const [invoice] = matches;
      if (matches.length !== 1 || !invoice) return undefined;
      if (settings.mode === 'insert')
        return { serviceId: invoice.id, message: `exists; feed mode insert ${DRY}` };
      if (settings.mode === 'update' || settings.mode === 'upsert') {
        const record = r as InvoiceRecord;
        if (invoice.invoiceType !== record.payload.invoiceType) return undefined;
        const patch = changedFields(record.payload, invoice, INVOICE_PATCH_RULES, settings);
        if (Object.keys(patch).length === 0) return { serviceId: invoice.id, message: `unchanged ${DRY}` };
      }
      return undefined;
    };
  }
  const skipped: RecordOutcome[] = [];
  const send: MappedRecord[] = [];
  for (const record of records) {
    const verdict = held(record);
    if (verdict) skipped.push(outcomeOf(record, { outcome: 'skipped', ...verdict }));
    else send.push(record);
  }
  return { skipped, send };
}
