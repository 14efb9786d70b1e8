import type { ChunkContext } from '../../sync/ports.js';
import { type HeldScope, heldOf, ReconcileRefused } from '../../sync/reconcile/held.js';
import { findBankAccount } from '../bank-accounts/lookup.js';
import type { TransactionFeedSettings } from './settings.js';

/**
 * A transactions feed's scope: the transactions of its one target bank account, listed page by page
 * at the largest page size (the API looks transactions up by externalId only to say they exist,
 * without their fields). A target not in the service is an empty scope: nothing is created.
 */
export async function transactionScope(feed: TransactionFeedSettings, ctx: ChunkContext): Promise<HeldScope> {
  const target = feed.bankAccount;
  if (!target)
    throw new ReconcileRefused(
      'reconcile compares a transactions feed with one target bank account (bankAccount); a feed with bankAccounts per statement account is not supported yet',
    );
  const bankAccountId = await findBankAccount(target, ctx);
  if (bankAccountId === undefined)
    return {
      describe: `bank account "${target.externalId}" (not in the service)`,
      // An empty scope: nothing listed.
      async *pages() {},
    };
  return {
    describe: `bank account "${target.externalId}" (id ${bankAccountId})`,
    async *pages() {
      for await (const page of ctx.client.transactionPages(ctx.accountId, bankAccountId, {
        signal: ctx.signal,
      }))
        yield page.data.map(heldOf);
    },
  };
}
