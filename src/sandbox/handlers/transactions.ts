import { handlers, ok } from '../context.js';
import { notFound, SandboxFault } from '../fault.js';
import { paginate } from '../pagination.js';
import type { AccountRecord, TransactionRecord } from '../state.js';
import { bankAccountOr404, ledgerOf, requirePartnerManaged } from './bank-account-rules.js';
import { faultOf } from './finance-common.js';
import { pathId } from './path-ids.js';
import {
  applyTransactionUpdate,
  findTransaction,
  insertTransaction,
  transactionProblem,
} from './transaction-records.js';
import { transactionBulkHandlers } from './transactions-bulk.js';

function transactionOr404(account: AccountRecord, id: number): TransactionRecord {
  const record = findTransaction(account, id);
  if (!record) {
    throw notFound(
      'TRANSACTION_NOT_FOUND',
      `Transaction ${id} does not exist in account ${account.id}; list /bank-account-transactions?bankAccountId=… for valid ids`,
    );
  }
  return record;
}

/** Single transactions; bulk create and the existence check live in transactions-bulk.ts. */
export const transactionsHandlers = handlers({
  ...transactionBulkHandlers,

  listTransactions: {
    handle(ctx) {
      // Reads work on bank accounts of every provider.
      const bank = bankAccountOr404(ctx.account, ctx.query.bankAccountId);
      // The ledger is kept in id order, so a page is a slice of it.
      return ok(paginate(ledgerOf(ctx.account, bank.id).records, ctx.query));
    },
  },

  createTransaction: {
    handle(ctx) {
      const { account, body } = ctx;
      const bank = bankAccountOr404(account, body.bankAccountId);
      requirePartnerManaged(bank, 'write transactions to');
      const ledger = ledgerOf(account, bank.id);
      const input = body.transaction;
      const existing = input.externalId === undefined ? undefined : ledger.byExternalId.get(input.externalId);
      if (existing) {
        // Unlike bulk create (which skips), a single create cannot answer "skipped" in its envelope.
        throw new SandboxFault(
          409,
          'TRANSACTION_ALREADY_EXISTS',
          `Transaction with externalId "${existing.externalId}" already exists on bank account ${bank.id} as transaction ${existing.id}; update it with PATCH instead`,
          [
            {
              field: 'transaction.externalId',
              code: 'already_exists',
              message: `exists as transaction ${existing.id}`,
            },
          ],
        );
      }
      const problem = transactionProblem(account, bank, input);
      if (problem) {
        throw faultOf({
          ...problem,
          causes: problem.causes.map((cause) => ({ ...cause, field: `transaction.${cause.field}` })),
        });
      }
      const record = insertTransaction(ctx.state, bank, ledger, input);
      return ok({ success: true, message: `Transaction ${record.id} created`, data: record });
    },
  },

  getTransaction: {
    handle(ctx) {
      const record = transactionOr404(ctx.account, pathId(ctx.params, 'id'));
      return ok({ success: true, message: 'OK', data: record });
    },
  },

  updateTransaction: {
    handle(ctx) {
      const { account, body } = ctx;
      const record = transactionOr404(account, pathId(ctx.params, 'id'));
      const bank = bankAccountOr404(account, record.bankAccountId);
      requirePartnerManaged(bank, 'write transactions to');
      const problem = transactionProblem(account, bank, body);
      if (problem) throw faultOf(problem);
      applyTransactionUpdate(record, body);
      return ok({ success: true, message: `Transaction ${record.id} updated`, data: record });
    },
  },
});
