import * as z from 'zod';
import {
  type BulkItemError,
  type Cause,
  type CreatedTransaction,
  compiled,
  int64,
  LIMITS,
  type SkippedTransaction,
  TransactionInput,
} from '../../contract/index.js';
import { handlers, ok } from '../context.js';
import { invalidRequest } from '../fault.js';
import { checkBulkSize, parseOr400 } from '../validation.js';
import { bankAccountOr404, ledgerOf, requirePartnerManaged } from './bank-account-rules.js';
import { bulkMessage, itemCauses, itemMessage, withExternalId } from './finance-common.js';
import { insertTransaction, transactionProblem } from './transaction-records.js';

/**
 * The envelopes only: the list is checked by checkBulkSize (so more than 1000 items is
 * BULK_LIMIT_EXCEEDED, not a schema error) and its items one by one.
 */
const BulkEnvelope = z.strictObject({ bankAccountId: int64, transactions: z.unknown() });
const ExistsEnvelope = z.strictObject({ bankAccountId: int64, externalIds: z.unknown() });

/** The per-item schemas run up to 1000 times a request: compiled once (contract/compiled.ts). */
const Item = compiled(TransactionInput);
const ExternalId = compiled(z.string().min(1).max(LIMITS.externalIdMaxLength));

export const transactionBulkHandlers = handlers({
  createTransactionsBulk: {
    rawBody: true,
    handle(ctx) {
      const { account, state } = ctx;
      const envelope = parseOr400(BulkEnvelope, ctx.rawBody, 'request body');
      const items = checkBulkSize(envelope.transactions, 'transactions', LIMITS.bulkItems.max);
      const bank = bankAccountOr404(account, envelope.bankAccountId);
      requirePartnerManaged(bank, 'write transactions to');
      const ledger = ledgerOf(account, bank.id);

      const created: CreatedTransaction[] = [];
      const errors: BulkItemError[] = [];
      const skipped: SkippedTransaction[] = [];
      for (let index = 0; index < items.length; index++) {
        const item = items[index];
        const parsed = Item.safeParse(item);
        if (!parsed.success) {
          const causes = itemCauses(parsed.error, index);
          errors.push(
            withExternalId(item, {
              index,
              error: 'INVALID_REQUEST',
              message: itemMessage(index, causes),
              causes,
            }),
          );
          continue;
        }
        const input = parsed.data;
        // Already on the account, or created by an earlier item of this very request: skipped.
        const existing =
          input.externalId === undefined ? undefined : ledger.byExternalId.get(input.externalId);
        if (existing) {
          skipped.push({ externalId: existing.externalId, index, transactionId: existing.id });
          continue;
        }
        const problem = transactionProblem(account, bank, input);
        if (problem) {
          const causes = problem.causes.map((cause) => ({ ...cause, index }));
          errors.push(
            withExternalId(item, {
              index,
              error: problem.code,
              message: `Item ${index}: ${problem.message}`,
              causes,
            }),
          );
          continue;
        }
        const record = insertTransaction(state, bank, ledger, input);
        created.push({ externalId: record.externalId, transactionId: record.id, index });
      }
      return ok({
        // false as soon as one item failed, so a caller that only looks at `success` notices.
        success: errors.length === 0,
        message: bulkMessage({ created: created.length, failed: errors.length, skipped: skipped.length }),
        createdCount: created.length,
        created,
        failedCount: errors.length,
        errors,
        skippedCount: skipped.length,
        skipped,
      });
    },
  },

  checkTransactionsExist: {
    rawBody: true,
    handle(ctx) {
      const envelope = parseOr400(ExistsEnvelope, ctx.rawBody, 'request body');
      const externalIds = checkBulkSize(envelope.externalIds, 'externalIds', LIMITS.bulkItems.max);
      const causes: Cause[] = [];
      for (let index = 0; index < externalIds.length; index++) {
        if (!ExternalId.safeParse(externalIds[index]).success) {
          causes.push({
            field: 'externalIds',
            index,
            message: `expected a string of 1 to ${LIMITS.externalIdMaxLength} characters`,
          });
        }
      }
      if (causes.length > 0) {
        throw invalidRequest(
          `externalIds[${causes[0]?.index}] is not a valid external id${causes.length > 1 ? ` (and ${causes.length - 1} more)` : ''}`,
          causes,
        );
      }
      // Reads work on bank accounts of every provider.
      const bank = bankAccountOr404(ctx.account, envelope.bankAccountId);
      const { byExternalId } = ledgerOf(ctx.account, bank.id);
      // Only the IDs that exist, each once, in request order.
      const seen = new Set<string>();
      const data: { externalId: string; exists: true; transactionId: number }[] = [];
      for (const externalId of externalIds as string[]) {
        const record = byExternalId.get(externalId);
        if (!record || seen.has(externalId)) continue;
        seen.add(externalId);
        data.push({ externalId, exists: true, transactionId: record.id });
      }
      return ok({ success: true, data });
    },
  },
});
