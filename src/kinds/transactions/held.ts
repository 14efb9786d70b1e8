import type { MappedRecord } from '../../sources/record.js';
import type { ChunkSettings } from '../../sync/chunk-settings.js';
import { DRY, type HeldVerdict, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';
import { findBankAccount } from '../bank-accounts/lookup.js';
import { groupByTarget } from './routing.js';

/** The externalIds (with their service ids) one bank account already holds of `records`. */
async function heldIn(
  records: readonly MappedRecord[],
  bankAccountId: number,
  ctx: ChunkContext,
): Promise<Map<string, number | undefined>> {
  const existing = await ctx.client.checkTransactionsExist(
    ctx.accountId,
    bankAccountId,
    records.map((r) => r.externalId),
    { signal: ctx.signal },
  );
  return new Map(existing.map((e) => [e.externalId, e.transactionId]));
}

/**
 * Transactions: an externalId the target bank account already holds is skipped (the same
 * existence check the real run starts with); without a target yet, everything would be sent.
 * Records routed to a statement's own target are checked there; a target that does not exist yet
 * is only looked up, never created.
 */
export async function heldTransactions(
  records: readonly MappedRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<(record: MappedRecord) => HeldVerdict> {
  if (records.length === 0) return nothingHeld;
  const held = new Map<MappedRecord, number | undefined>();
  for (const group of groupByTarget(records, settings.bankAccounts)) {
    const bankAccountId =
      group.target === undefined ? settings.bankAccountId : await findBankAccount(group.target, ctx);
    if (bankAccountId === undefined) continue;
    const ids = await heldIn(group.records, bankAccountId, ctx);
    for (const record of group.records)
      if (ids.has(record.externalId)) held.set(record, ids.get(record.externalId));
  }
  if (held.size === 0) return nothingHeld;
  return (r) => {
    if (!held.has(r)) return undefined;
    const serviceId = held.get(r);
    return { ...(serviceId === undefined ? {} : { serviceId }), message: `already in the service ${DRY}` };
  };
}
