import { TransactionInput } from '../../contract/index.js';
import { findBankAccount, resolveBankAccount } from '../bank-accounts/lookup.js';
import type { KindDefinition } from '../definition.js';
import { updateStatementBalances } from './balances.js';
import { TRANSACTION_FIELDS } from './fields.js';
import { heldTransactions } from './held.js';
import { transactionScope } from './reconcile.js';
import { syncTransactionsByTarget } from './routed-sync.js';
import { routeTransaction } from './routing.js';
import {
  checkRoutes,
  TRANSACTION_FEED_KEYS,
  TransactionChunkSettings,
  type TransactionFeedSettings,
} from './settings.js';

export const transactions: KindDefinition<
  TransactionInput,
  TransactionFeedSettings,
  TransactionChunkSettings
> = {
  description:
    'bank transactions, written to the bank account the feed names (`bankAccount`), or per statement account (`bankAccounts`)',
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
  feedKeys: TRANSACTION_FEED_KEYS,
  // The feed's one target pins the currency of records that name none.
  pinnedCurrency: (feed) => feed.bankAccount?.accountCurrency,
  checkFeed: checkRoutes,
  chunk: TransactionChunkSettings,
  route: routeTransaction,
  async prepare(feed, dryRun, ctx) {
    // The statements' own targets are found (or created) by the chunks that hold their records:
    // a target the file never names is never created.
    const routes = feed.bankAccounts === undefined ? {} : { bankAccounts: feed.bankAccounts };
    if (!feed.bankAccount) return routes;
    // A dry run makes the same checks (an ambiguous or non-PARTNER target stops it: importFile
    // turns the error into the run's stop), minus the create.
    const bankAccountId = dryRun
      ? await findBankAccount(feed.bankAccount, ctx)
      : await resolveBankAccount(feed.bankAccount, ctx);
    return bankAccountId === undefined ? routes : { ...routes, bankAccountId };
  },
  settles: (feed, dryRun, ctx) => ({
    balances: (candidates) =>
      feed.updateBalances === false
        ? Promise.resolve([])
        : updateStatementBalances(feed, candidates, dryRun, ctx),
  }),
  // One path for every chunk: records without a route form the one group of the feed's bankAccount.
  sync: syncTransactionsByTarget,
  predict: heldTransactions,
  reconcile: transactionScope,
};
