import { type Invoice, InvoiceUpdate } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import { settleChunk } from '../../sync/chunk-outcomes.js';
import { withCreateClaims } from '../../sync/create-claims.js';
import { firstOfEachExternalId } from '../../sync/first-of-each.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { updateConfirmed } from '../../sync/writes/confirmed-writes.js';
import { changedFields, patchRules, type UpsertOptions } from '../../sync/writes/field-diff.js';
import { RecheckSchedule } from '../../sync/writes/recheck.js';
import { createInvoices, filterOf, type InvoiceRecord, lookupInvoices } from './bulk.js';
import { INVOICE_FIELDS } from './fields.js';

/** PATCH takes every create field but externalId and invoiceType (the contract's InvoiceUpdate). */
/** Which invoice fields a PATCH may carry (also what a dry run predicts with). */
export const INVOICE_PATCH_RULES = patchRules(INVOICE_FIELDS, InvoiceUpdate);

const REFUSALS: Record<string, Refusal> = {
  INVOICE_NOT_MODIFIABLE: {
    outcome: 'rejected',
    advice:
      "the invoice comes from the customer's ERP integration and is read-only for the partner API: change it in that ERP, or leave it out of this feed (an exclude rule)",
  },
  INVOICE_NOT_FOUND: {
    outcome: 'failed',
    advice: 'the invoice was deleted in the service while this chunk synced; the next run creates it again',
  },
};

/**
 * Upserts one chunk of invoices by externalId, never creating one twice (docs/once-only.md). The
 * service does not de-duplicate invoices on create, so nothing is created before a lookup has
 * shown it missing:
 * - a second record with an externalId already in the chunk is rejected (DUPLICATE_IN_SOURCE);
 * - lookup by externalId under each record's invoiceTypeFilter (and the other filter for what was
 *   not found, since an externalId must not exist twice in either family);
 * - missing: bulk create (mode update: rejected NOT_FOUND_FOR_UPDATE, since the user asked to update
 *   something that is not there); after an ambiguous bulk answer the records are looked up again on
 *   the 1/2/4 s schedule, found ones count as created and only the rest are resent;
 * - existing: mode insert skips them; otherwise the fields are compared and only what differs is
 *   PATCHed (unchanged: skipped); a type change, several invoices with the externalId and ERP
 *   invoices (409 INVOICE_NOT_MODIFIABLE) are rejected with advice, the rest of the chunk goes on.
 * Exactly one outcome per record; RunStopError for errors that doom the run.
 */
export function syncInvoicesChunk(
  records: readonly InvoiceRecord[],
  options: UpsertOptions,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return settleChunk(records, ctx, (out) =>
    // Another run creating one of these invoices right now would find it missing too: hold them.
    withCreateClaims(ctx, 'invoices', firstOfEachExternalId(records, out), out, async (firsts) => {
      let pending = firsts;
      // The service does not de-duplicate invoices: after a lost answer, wait until the request can
      // no longer commit before the lookup that decides what is resent (docs/once-only.md).
      const rechecks = new RecheckSchedule(ctx, 'createInvoicesBulk', true);
      const sentAmbiguously = new Set<InvoiceRecord>();
      while (pending.length > 0) {
        const found = await lookupInvoices(ctx, pending);
        const missing: InvoiceRecord[] = [];
        for (const record of pending) {
          const matches = found.get(record.externalId) ?? [];
          if (matches.length === 0 && options.mode === 'update') {
            out.settle(record, {
              outcome: 'rejected',
              code: 'NOT_FOUND_FOR_UPDATE',
              message: `no invoice with externalId "${record.externalId}" in the service, and the feed's mode is update (update only); create it elsewhere, or set mode upsert`,
            });
          } else if (matches.length === 0) missing.push(record);
          else if (sentAmbiguously.has(record) && matches.length === 1) {
            out.settle(record, {
              outcome: 'created',
              serviceId: matches[0]?.id,
              message: 'created (confirmed by the lookup after an ambiguous answer)',
            });
          } else out.settle(record, await syncExisting(record, matches, options, ctx));
        }
        if (missing.length === 0) break;
        const recheck = await createInvoices(missing, ctx, out, sentAmbiguously);
        pending = recheck.records;
        if (pending.length > 0) await rechecks.wait(recheck.reason, recheck.cause);
      }
    }),
  );
}

/** The outcome of a record whose externalId the service already holds. */
async function syncExisting(
  record: InvoiceRecord,
  matches: readonly Invoice[],
  options: UpsertOptions,
  ctx: ChunkContext,
): Promise<OutcomeFields> {
  const [invoice] = matches;
  if (!invoice) throw new Error('syncExisting needs at least one match');
  if (options.mode === 'insert') {
    return { outcome: 'skipped', serviceId: invoice.id, message: 'exists; feed mode insert' };
  }
  if (matches.length > 1) {
    return {
      outcome: 'rejected',
      code: 'AMBIGUOUS_TARGET',
      message: `${matches.length} invoices in the service carry externalId "${record.externalId}" (ids ${matches.map((m) => m.id).join(', ')}); erp-bridge cannot tell which one to update: delete the extra ones in the service`,
    };
  }
  if (invoice.invoiceType !== record.payload.invoiceType) {
    return {
      outcome: 'rejected',
      code: 'INVOICE_TYPE_MISMATCH',
      serviceId: invoice.id,
      message: `invoice ${invoice.id} with externalId "${record.externalId}" is a ${invoice.invoiceType} in the service, the record says ${record.payload.invoiceType}; an invoice's type cannot change: correct the type in the export, or give the record another externalId`,
    };
  }
  return updateConfirmed(ctx, invoice, {
    operation: 'updateInvoice',
    id: (current) => current.id,
    refusals: REFUSALS,
    patchOf: (current) => {
      const patch = changedFields(record.payload, current, INVOICE_PATCH_RULES, options);
      return Object.keys(patch).length === 0 ? undefined : InvoiceUpdate.parse(patch);
    },
    send: (current, patch) =>
      ctx.client.updateInvoice(ctx.accountId, current.id, filterOf(record), patch, { signal: ctx.signal }),
    // PATCH sets fields, so an ambiguous one is re-read and compared again instead of resent blindly.
    reread: async (current) => {
      const again = (await lookupInvoices(ctx, [record])).get(record.externalId) ?? [];
      const same = again.find((i) => i.id === current.id);
      if (same) return { state: same };
      return {
        outcome: {
          outcome: 'failed',
          code: 'INVOICE_NOT_FOUND',
          message: `invoice ${current.id} disappeared from the service while it was being updated; the next run creates it again`,
        },
      };
    },
  });
}
