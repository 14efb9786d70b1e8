import { ApiError } from '../../client/index.js';
import {
  type BulkInvoicesResponse,
  type BulkItemError,
  type Invoice,
  type InvoiceCreate,
  type InvoiceTypeFilter,
  invoiceTypeFilterOf,
} from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import { bulkErrorOutcome, itemAt } from '../../sync/bulk-answer.js';
import type { ChunkOutcomes } from '../../sync/chunk-outcomes.js';
import type { ChunkContext } from '../../sync/ports.js';
import { sendSettling } from '../../sync/send-settling.js';

export type InvoiceRecord = MappedRecord<InvoiceCreate>;

export const filterOf = (record: InvoiceRecord): InvoiceTypeFilter =>
  invoiceTypeFilterOf(record.payload.invoiceType);

const otherFilter = (filter: InvoiceTypeFilter): InvoiceTypeFilter =>
  filter === 'SALE' ? 'PURCHASE' : 'SALE';

function idsBy(
  records: readonly InvoiceRecord[],
  filter: (r: InvoiceRecord) => InvoiceTypeFilter,
): Map<InvoiceTypeFilter, string[]> {
  const groups = new Map<InvoiceTypeFilter, string[]>();
  for (const record of records) {
    const key = filter(record);
    const ids = groups.get(key);
    if (ids) ids.push(record.externalId);
    else groups.set(key, [record.externalId]);
  }
  return groups;
}

/**
 * The service's invoices carrying the records' externalIds, by externalId (several when the
 * service holds several). Each record is looked up under its own invoiceTypeFilter; those not
 * found there are looked up under the other one too, because creating them would otherwise make a
 * second invoice with that externalId (of the other type family). The client sends <= 100 IDs per
 * GET and reads every page.
 */
export async function lookupInvoices(
  ctx: ChunkContext,
  records: readonly InvoiceRecord[],
): Promise<Map<string, Invoice[]>> {
  const wanted = new Set(records.map((r) => r.externalId));
  const found = new Map<string, Invoice[]>();
  const lookup = async (groups: Map<InvoiceTypeFilter, string[]>) => {
    for (const [filter, ids] of groups) {
      const invoices = await ctx.client.lookupInvoicesByExternalIds(ctx.accountId, filter, ids, {
        signal: ctx.signal,
      });
      for (const invoice of invoices) {
        if (invoice.externalId == null || !wanted.has(invoice.externalId)) continue;
        const list = found.get(invoice.externalId) ?? [];
        if (!list.some((i) => i.id === invoice.id)) list.push(invoice);
        found.set(invoice.externalId, list);
      }
    }
  };
  await lookup(idsBy(records, filterOf));
  await lookup(
    idsBy(
      records.filter((r) => !found.has(r.externalId)),
      (r) => otherFilter(filterOf(r)),
    ),
  );
  return found;
}

/** Records to look up again before anything is resent, and why (the re-check alert names it). */
export interface Recheck {
  records: InvoiceRecord[];
  reason: string;
  /** The ambiguous failure, if any (its inFlightForMs tells how long the request may still commit). */
  cause?: unknown;
}

/**
 * Bulk-creates invoices the lookup did not find; a 400 for the whole request is narrowed to the
 * invalid records. Settles what the answers tell and returns what must be looked up again: the
 * records of a request whose answer was lost or a 500 (marked in `sentAmbiguously`: found later,
 * they count as created), those never sent because of it, and those an answer did not account for.
 */
export async function createInvoices(
  missing: InvoiceRecord[],
  ctx: ChunkContext,
  out: ChunkOutcomes<InvoiceRecord>,
  sentAmbiguously: Set<InvoiceRecord>,
): Promise<Recheck> {
  // What was answered is settled even when a later request failed, so no created invoice is lost.
  const { progress, failure } = await sendSettling(
    missing,
    (batch) =>
      ctx.client.createInvoicesBulk(
        ctx.accountId,
        batch.map((r) => r.payload),
        { signal: ctx.signal },
      ),
    out,
  );
  const unacknowledged = progress.sent.flatMap(({ items, response }) =>
    applyBulkAnswer(items, response, out),
  );
  for (const record of unacknowledged) sentAmbiguously.add(record);
  if (failure === undefined) return { records: unacknowledged, reason: 'UNACKNOWLEDGED' };
  if (!(failure instanceof ApiError) || !failure.ambiguous) throw failure;
  ctx.logger.warn(
    { err: failure, records: progress.failed.length },
    'invoice bulk create answer lost or 500: looking up before resending',
  );
  for (const record of progress.failed) sentAmbiguously.add(record);
  return {
    records: [...unacknowledged, ...progress.failed, ...progress.unsent],
    reason: failure.code,
    cause: failure,
  };
}

/**
 * Maps one bulk answer to its records: `errors` by index (or externalId) to rejections, and
 * `invoiceIds` — the created items' ids in request order, the failed items left out (as the
 * sandbox does) — paired with the remaining records by position. Only when the counts agree can
 * they be paired; otherwise the created records are returned for a lookup.
 */
function applyBulkAnswer(
  items: readonly InvoiceRecord[],
  response: BulkInvoicesResponse,
  out: ChunkOutcomes<InvoiceRecord>,
): InvoiceRecord[] {
  const errorAt = new Map<number, BulkItemError>();
  for (const error of response.errors) {
    const i = itemAt(items, error.index, error.externalId);
    if (i !== undefined) errorAt.set(i, error);
  }
  for (const [i, error] of errorAt) out.settle(items[i] as InvoiceRecord, bulkErrorOutcome(error));
  const created = items.filter((_, i) => !errorAt.has(i));
  if (response.invoiceIds.length !== created.length) return created;
  created.forEach((record, k) => {
    out.settle(record, { outcome: 'created', serviceId: response.invoiceIds[k] });
  });
  return [];
}
