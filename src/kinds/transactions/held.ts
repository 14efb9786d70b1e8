import type { MappedRecord } from '../../sources/record.js';
import type { KindChunkSettings } from '../../sync/chunk-settings.js';
import { DRY, type HeldVerdict, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';
import { findBankAccount } from '../bank-accounts/lookup.js';
import { existingOf } from './existing.js';
import { judgeOtherShapes } from './other-shape.js';
import { groupByTarget } from './routing.js';
import type { TransactionChunkSettings } from './settings.js';

/**
 * Transactions: an externalId the target bank account already holds is skipped (the same
 * existence check the real run starts with); without a target yet, everything would be sent.
 * Records routed to a statement's own target are checked there; a target that does not exist yet
 * is only looked up, never created.
 */
export async function heldTransactions(
  records: readonly MappedRecord[],
  { ofKind: settings }: KindChunkSettings<TransactionChunkSettings>,
  ctx: ChunkContext,
): Promise<(record: MappedRecord) => HeldVerdict> {
  if (records.length === 0) return nothingHeld;
  const held = new Map<MappedRecord, Exclude<HeldVerdict, undefined>>();
  for (const group of groupByTarget(records, settings.bankAccounts)) {
    const bankAccountId =
      group.target === undefined ? settings.bankAccountId : await findBankAccount(group.target, ctx);
    if (bankAccountId === undefined) continue;
    const ids = await existingOf(group.records, bankAccountId, ctx);
    const unheld = group.records.filter((record) => !ids.has(record.externalId));
    // The same comparison as the real run: a booking held in another shape that says otherwise
    // would be rejected.
    const otherShapes = await judgeOtherShapes(unheld, ids, bankAccountId, ctx);
    for (const record of group.records) {
      if (ids.has(record.externalId))
        held.set(record, { serviceId: ids.get(record.externalId), message: 'already in the service' });
      else {
        const other = otherShapes.get(record);
        if (other?.message !== undefined)
          held.set(record, {
            ...(other.serviceId === undefined ? {} : { serviceId: other.serviceId }),
            message: other.message,
            ...(other.outcome === 'rejected' && other.code ? { outcome: 'rejected', code: other.code } : {}),
          });
      }
    }
  }
  if (held.size === 0) return nothingHeld;
  return (r) => {
    const verdict = held.get(r);
    if (!verdict) return undefined;
    const { serviceId, ...rest } = verdict;
    return {
      ...rest,
      ...(serviceId === undefined ? {} : { serviceId }),
      message: `${verdict.message} ${DRY}`,
    };
  };
}
