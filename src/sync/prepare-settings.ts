import type { Feed } from '../config/feed.js';
import type { ChunkContext } from './ports.js';
import { findBankAccount, resolveBankAccount } from './strategies/bank-account-target.js';
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
    // The same checks as the real run (ambiguous or non-PARTNER target stop it: importFile turns
    // the error into the run's stop), minus the create.
    const existing = await findBankAccount(feed.bankAccount, ctx);
    return existing === undefined ? settings : { ...settings, bankAccountId: existing };
  }
  return { ...settings, bankAccountId: await resolveBankAccount(feed.bankAccount, ctx) };
}
