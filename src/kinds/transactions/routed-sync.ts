import { ApiError } from '../../client/index.js';
import type { TransactionInput } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import { failedAll } from '../../sync/build-outcome.js';
import type { KindChunkSettings } from '../../sync/chunk-settings.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import { stopFor } from '../../sync/stop.js';
import { resolveBankAccount } from '../bank-accounts/lookup.js';
import { groupByTarget } from './routing.js';
import type { TransactionChunkSettings } from './settings.js';
import { syncTransactionsChunk } from './strategy.js';

type TxRecord = MappedRecord<TransactionInput>;

/**
 * Syncs a chunk of transactions, a group per target bank account: records routed by the feed's
 * `bankAccounts` to their statement's account, the others to the feed's one `bankAccount`
 * (`bankAccountId`). Each routed target is found (or created, with the create claim, so
 * two chunks or runs create it once) before anything is sent, so a target that stops the run
 * stops it before any write.
 * A target whose create stays unconfirmed fails its own records only; the next run re-checks.
 * Outcomes come back in the chunk's order.
 */
export async function syncTransactionsByTarget(
  records: readonly TxRecord[],
  { ofKind: settings }: KindChunkSettings<TransactionChunkSettings>,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  const groups = groupByTarget(records, settings.bankAccounts);
  const resolved: { records: TxRecord[]; to: number | ApiError }[] = [];
  for (const group of groups) {
    if (group.target === undefined) {
      if (settings.bankAccountId === undefined)
        throw new Error('transactions chunk without a target bank account');
      resolved.push({ records: group.records, to: settings.bankAccountId });
      continue;
    }
    try {
      resolved.push({ records: group.records, to: await resolveBankAccount(group.target, ctx) });
    } catch (error) {
      if (!(error instanceof ApiError) || stopFor(error)) throw error;
      resolved.push({ records: group.records, to: error });
    }
  }
  // One target (every record of a feed with one bank account): the group is the chunk, in its order.
  const [only] = resolved;
  if (resolved.length === 1 && only && typeof only.to === 'number')
    return syncTransactionsChunk(only.records, only.to, ctx);
  const outcomes = new Map<TxRecord, RecordOutcome>();
  for (const { records: group, to } of resolved) {
    const settled =
      to instanceof ApiError
        ? failedAll(group, {
            code: to.code,
            message: `not sent, the statement's target bank account could not be prepared: ${to.message}`,
          })
        : await syncTransactionsChunk(group, to, ctx);
    group.forEach((record, i) => {
      const outcome = settled[i];
      if (outcome) outcomes.set(record, outcome);
    });
  }
  const list: RecordOutcome[] = [];
  for (const record of records) {
    const outcome = outcomes.get(record);
    if (outcome) list.push(outcome);
  }
  return list;
}
