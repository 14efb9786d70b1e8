import type { MappedRecord } from '../../sources/record.js';
import type { ChunkSettings } from '../../sync/chunk-settings.js';
import { DRY, type HeldVerdict, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';

/**
 * Transactions: an externalId the target bank account already holds is skipped (the same
 * existence check the real run starts with); without a target yet, everything would be sent.
 */
export async function heldTransactions(
  records: readonly MappedRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<(record: MappedRecord) => HeldVerdict> {
  if (settings.bankAccountId === undefined || records.length === 0) return nothingHeld;
  const existing = await ctx.client.checkTransactionsExist(
    ctx.accountId,
    settings.bankAccountId,
    records.map((r) => r.externalId),
    { signal: ctx.signal },
  );
  const ids = new Map(existing.map((e) => [e.externalId, e.transactionId]));
  return (r) => {
    if (!ids.has(r.externalId)) return undefined;
    const serviceId = ids.get(r.externalId);
    return { ...(serviceId === undefined ? {} : { serviceId }), message: `already in the service ${DRY}` };
  };
}
