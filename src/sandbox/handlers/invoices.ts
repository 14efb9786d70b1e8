import * as z from 'zod';
import {
  type BulkItemError,
  compiled,
  InvoiceCreate,
  invoiceTypeFilterOf,
  LIMITS,
} from '../../contract/index.js';
import { handlers, ok } from '../context.js';
import { paginate } from '../pagination.js';
import { checkBulkSize, parseOr400 } from '../validation.js';
import {
  bulkMessage,
  categoryProblem,
  faultOf,
  itemCauses,
  itemMessage,
  withExternalId,
} from './finance-common.js';
import {
  applyInvoiceUpdate,
  insertInvoice,
  invoiceOr404,
  invoicesByExternalIds,
  removeInvoice,
  requireApiInvoice,
} from './invoice-records.js';
import { pathId } from './path-ids.js';

/** Compiled once: every bulk item is checked against it. */
const InvoiceItem = compiled(InvoiceCreate);

/** Envelope only; the list is size-checked by checkBulkSize (BULK_LIMIT_EXCEEDED) and validated per item. */
const BulkEnvelope = z.strictObject({ invoices: z.unknown() });

export const invoicesHandlers = handlers({
  listInvoices: {
    handle(ctx) {
      const { account, query } = ctx;
      const filter = query.invoiceTypeFilter;
      const items =
        query.externalId === undefined
          ? [...account.invoices.values()].filter((i) => invoiceTypeFilterOf(i.invoiceType) === filter)
          : invoicesByExternalIds(account, query.externalId, filter);
      return ok(paginate(items, query));
    },
  },

  getInvoice: {
    handle(ctx) {
      const invoice = invoiceOr404(ctx.account, pathId(ctx.params, 'id'), ctx.query.invoiceTypeFilter);
      return ok({ success: true, message: 'OK', data: invoice });
    },
  },

  createInvoice: {
    handle(ctx) {
      const problem = categoryProblem(ctx.account, ctx.body.categoryId);
      if (problem) throw faultOf(problem);
      const invoice = insertInvoice(ctx.state, ctx.account, ctx.body);
      return ok({ success: true, message: `Invoice ${invoice.id} created`, data: invoice });
    },
  },

  createInvoicesBulk: {
    rawBody: true,
    handle(ctx) {
      const envelope = parseOr400(BulkEnvelope, ctx.rawBody, 'request body');
      const items = checkBulkSize(envelope.invoices, 'invoices', LIMITS.bulkItems.max);
      const invoiceIds: number[] = [];
      const errors: BulkItemError[] = [];
      for (let index = 0; index < items.length; index++) {
        const item = items[index];
        const parsed = InvoiceItem.safeParse(item);
        const problem = parsed.success ? categoryProblem(ctx.account, parsed.data.categoryId) : undefined;
        if (!parsed.success || problem) {
          const causes = parsed.success
            ? (problem?.causes ?? []).map((cause) => ({ ...cause, index }))
            : itemCauses(parsed.error, index);
          const entry: BulkItemError = {
            index,
            error: problem?.code ?? 'INVALID_REQUEST',
            message: problem ? `Item ${index}: ${problem.message}` : itemMessage(index, causes),
            causes,
          };
          errors.push(withExternalId(item, entry));
          continue;
        }
        invoiceIds.push(insertInvoice(ctx.state, ctx.account, parsed.data).id);
      }
      return ok({
        // false as soon as one item failed, so a caller that only looks at `success` notices.
        success: errors.length === 0,
        message: bulkMessage({ created: invoiceIds.length, failed: errors.length }),
        createdCount: invoiceIds.length,
        invoiceIds,
        failedCount: errors.length,
        errors,
      });
    },
  },

  updateInvoice: {
    handle(ctx) {
      const invoice = invoiceOr404(ctx.account, pathId(ctx.params, 'id'), ctx.query.invoiceTypeFilter);
      requireApiInvoice(invoice, 'updated');
      const problem = categoryProblem(ctx.account, ctx.body.categoryId);
      if (problem) throw faultOf(problem);
      applyInvoiceUpdate(invoice, ctx.body);
      return ok({ success: true, message: `Invoice ${invoice.id} updated`, data: invoice });
    },
  },

  deleteInvoice: {
    handle(ctx) {
      const invoice = invoiceOr404(ctx.account, pathId(ctx.params, 'id'), ctx.query.invoiceTypeFilter);
      requireApiInvoice(invoice, 'deleted');
      removeInvoice(ctx.account, invoice);
      return ok({ success: true, message: `Invoice ${invoice.id} deleted`, id: invoice.id });
    },
  },
});
