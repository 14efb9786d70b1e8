import type { Feed } from '../config/feed.js';
import type { ChunkContext } from './ports.js';
import { resolveBankAccount } from './strategies/bank-account-target.js';
import type { ChunkSettings } from './strategies/index.js';

/** Chunk settings of a feed; for transactions the target bank account, found (dry run) or found-or-created. */
export async function prepareSettings(
  feed: Feed,
  dryRun: boolean,
  ctx: ChunkContext,
): Promise<ChunkSettings> {
  const settings: ChunkSettings = {
    mode: feed.mode,
    emptyCellClears: feed.emptyCellClears,
    mappedFields: Object.keys(feed.mapping),
  };
  if (feed.kind !== 'transactions' || !feed.bankAccount) return settings;
  if (dryRun) {
    const existing = (await ctx.client.listBankAccounts(feed.accountId, { signal: ctx.signal })).find(
      (b) => b.externalId === feed.bankAccount?.externalId,
    );
    return existing ? { ...settings, bankAccountId: existing.id } : settings;
  }
  return { ...settings, bankAccountId: await resolveBankAccount(feed.bankAccount, ctx) };
}
