import { INVOICE_TYPE_FILTERS } from '../../contract/index.js';
import type { ChunkContext } from '../../sync/ports.js';
import { type HeldRecord, type HeldScope, heldOf } from '../../sync/reconcile/held.js';
import { filterOf, type InvoiceRecord, lookupInvoices } from './bulk.js';

/**
 * An invoices feed's scope: the account's invoices of the type families (SALE, PURCHASE) its
 * records have. Records are looked up by externalId as the sync does (at most 100 per request,
 * under their own filter, then the other); the listing finds what the exports do not name.
 */
export function invoiceScope(ctx: ChunkContext): Promise<HeldScope> {
  return Promise.resolve({
    describe: `invoices of account ${ctx.accountId}`,
    partOf: (record) => filterOf(record as InvoiceRecord),
    async *pages(parts) {
      for (const filter of INVOICE_TYPE_FILTERS) {
        if (!parts.has(filter)) continue;
        for await (const page of ctx.client.invoicePages(ctx.accountId, filter, { signal: ctx.signal }))
          yield page.data.map(heldOf);
      }
    },
    lookup: {
      size: 1000,
      async find(records) {
        const found = await lookupInvoices(ctx, records as readonly InvoiceRecord[]);
        const first = new Map<string, HeldRecord>();
        for (const [externalId, [invoice]] of found) if (invoice) first.set(externalId, heldOf(invoice));
        return first;
      },
    },
  });
}
