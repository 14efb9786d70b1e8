import { TransactionInput } from '../../contract/index.js';
import { findBankAccount, resolveBankAccount } from '../bank-accounts/lookup.js';
import type { KindDefinition } from '../definition.js';
import { TRANSACTION_FIELDS } from './fields.js';
import { heldTransactions } from './held.js';
import { syncTransactionsChunk } from './strategy.js';

export const transactions: KindDefinition<TransactionInput> = {
  description: 'bank transactions, written to the bank account the feed names (`bankAccount`)',
  fields: TRANSACTION_FIELDS,
  create: TransactionInput,
  amountField: 'amount',
  identityFields: [
    'amount',
    'bookingDate',
    'counterpartyIban',
    'counterpartyName',
    'currency',
    'purpose',
    'valueDate',
  ],
  sendsExternalId: true,
  feedKeys: ['bankAccount'],
  async prepare(feed, dryRun, ctx) {
    if (!feed.bankAccount) return {};
    // A dry run makes the same checks (an ambiguous or non-PARTNER target stops it: importFile
    // turns the error into the run's stop), minus the create.
    const bankAccountId = dryRun
      ? await findBankAccount(feed.bankAccount, ctx)
      : await resolveBankAccount(feed.bankAccount, ctx);
    return bankAccountId === undefined ? {} : { bankAccountId };
  },
  sync(records, settings, ctx) {
    if (settings.bankAccountId === undefined)
      throw new Error('transactions chunk without a target bank account');
    return syncTransactionsChunk(records, settings.bankAccountId, ctx);
  },
  predict: heldTransactions,
};
