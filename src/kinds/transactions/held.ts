import type { MappedRecord } from '../../sources/record.js';
import type { ChunkSettings } from '../../sync/chunk-settings.js';
import { DRY, type HeldVerdict, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';
import { findBankAccount } from '../bank-accounts/lookup.js';
import { existingOf, heldInAnotherShape } from './existing.js';
import { groupByTarget } from './routing.js';

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
  const held = new Map<MappedRecord, { serviceId: number | undefined; message: string }>();
  for (const group of groupByTarget(records, settings.bankAccounts)) {
    const bankAccountId =
      group.target === undefined ? settings.bankAccountId : await findBankAccount(group.target, ctx);
    if (bankAccountId === undefined) continue;
    const ids = await existingOf(group.records, bankAccountId, ctx);
    for (const record of group.records) {
      if (ids.has(record.externalId))
        held.set(record, { serviceId: ids.get(record.externalId), message: 'already in the service' });
      else {
        const other = heldInAnotherShape(record, ids);
        if (other) held.set(record, other);
      }
    }
  }
  if (held.size === 0) return nothingHeld;
  return (r) => {
    const verdict = held.get(r);
    if (!verdict) return undefined;
    const { serviceId, message } = verdict;
    return { ...(serviceId === undefined ? {} : { serviceId }), message: `${message} ${DRY}` };
  };
}
