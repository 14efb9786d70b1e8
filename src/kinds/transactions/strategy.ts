import { ApiError } from '../../client/index.js';
import type { BulkTransactionsResponse, TransactionInput } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import { bulkErrorOutcome, itemAt } from '../../sync/bulk-answer.js';
import { type ChunkOutcomes, settleChunk } from '../../sync/chunk-outcomes.js';
import { withCreateClaims } from '../../sync/create-claims.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import { sendSettling } from '../../sync/send-settling.js';
import { RecheckSchedule } from '../../sync/writes/recheck.js';
import { existingOf } from './existing.js';
import { judgeOtherShapes } from './other-shape.js';

type TxRecord = MappedRecord<TransactionInput>;

/**
 * Syncs one chunk of transactions into one bank account so that a rerun, a replay or a lost answer
 * never creates one twice (docs/once-only.md):
 * existence check, bulk create of what is missing, every created/skipped/errors entry mapped back
 * to its record. After an ambiguous failure (500 or lost answer on the bulk create) the chunk goes
 * back to the existence check before anything is resent, on the spec's 1/2/4 s schedule; records
 * that turn out to exist after our own ambiguous write count as created. A 400 for the whole
 * request is narrowed down to the invalid records. Errors that doom the run are thrown as
 * RunStopError; any other failure marks the chunk's remaining records failed (settleChunk).
 *
 * A bank statement's booking may come in several shapes with other externalIds (one entry, the
 * parts of its batch): the records of a booking are checked and created holding the create claim
 * on that booking, so two runs (two files of one booking, in the fleet two workers) never both
 * find it missing and create it twice; the one that waits then finds the other's shape.
 */
export function syncTransactionsChunk(
  records: readonly TxRecord[],
  bankAccountId: number,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return settleChunk(records, ctx, (out) =>
    withCreateClaims(
      ctx,
      'transactions',
      [...records],
      out,
      (held) => createOnce(held, bankAccountId, ctx, out),
      bookingClaim,
    ),
  );
}

/**
 * What a record's booking claims while it is checked and created: none without a booking, nor for
 * one with no other shape (an MT940 entry: its one externalId is the service's own guard).
 */
const bookingClaim = ({ booking }: TxRecord): string | undefined =>
  booking?.others.length
    ? `the booking with the bank's reference "${booking.reference}" of account "${booking.account}"`
    : undefined;

/** The existence check and bulk create of `records`, until each is settled. */
async function createOnce(
  records: readonly TxRecord[],
  bankAccountId: number,
  ctx: ChunkContext,
  out: ChunkOutcomes<TxRecord>,
): Promise<void> {
  let pending = [...records];
  const sentAmbiguously = new Set<string>();
  const rechecks = new RecheckSchedule(ctx, 'createTransactionsBulk');
  while (pending.length > 0) {
    const existingIds = await existingOf(pending, bankAccountId, ctx);
    // Only records whose own externalId is not held can be held in another shape: an ordinary
    // rerun of the same shape asks nothing more.
    const otherShapes = await judgeOtherShapes(
      pending.filter((record) => !existingIds.has(record.externalId)),
      existingIds,
      bankAccountId,
      ctx,
    );
    const missing: TxRecord[] = [];
    for (const record of pending) {
      if (!existingIds.has(record.externalId)) {
        const other = otherShapes.get(record);
        if (other) out.settle(record, other);
        else missing.push(record);
      } else if (sentAmbiguously.has(record.externalId)) {
        out.settle(record, {
          outcome: 'created',
          serviceId: existingIds.get(record.externalId),
          message: 'created (confirmed by the existence check after an ambiguous answer)',
        });
      } else
        out.settle(record, {
          outcome: 'skipped',
          serviceId: existingIds.get(record.externalId),
          message: 'already in the service',
        });
    }
    if (missing.length === 0) break;
    // What was answered is settled even when a later request failed (narrowing a 400 down sends
    // several), so a created transaction is never reported failed nor a rejected one resent.
    const { progress, failure } = await sendSettling(
      missing,
      (batch) =>
        ctx.client.createTransactionsBulk(
          ctx.accountId,
          bankAccountId,
          batch.map((r) => r.payload),
          { signal: ctx.signal },
        ),
      out,
    );
    const unacknowledged = progress.sent.flatMap(({ items, response }) =>
      applyBulkResponse(items, response, sentAmbiguously, out),
    );
    // The service answered but named some records nowhere: find out what became of them.
    for (const record of unacknowledged) sentAmbiguously.add(record.externalId);
    if (failure === undefined) {
      pending = unacknowledged;
      if (pending.length > 0) await rechecks.wait('UNACKNOWLEDGED');
      continue;
    }
    if (!(failure instanceof ApiError) || !failure.ambiguous) throw failure;
    ctx.logger.warn(
      { err: failure, records: progress.failed.length },
      'bulk create answer lost or 500: re-checking before resending',
    );
    for (const record of progress.failed) sentAmbiguously.add(record.externalId);
    pending = [...unacknowledged, ...progress.failed, ...progress.unsent];
    await rechecks.wait(failure.code, failure);
  }
}

/** Maps one bulk answer back to records; returns the records it did not mention. */
function applyBulkResponse(
  items: readonly TxRecord[],
  response: BulkTransactionsResponse,
  sentAmbiguously: ReadonlySet<string>,
  out: ChunkOutcomes<TxRecord>,
): TxRecord[] {
  const seen = new Set<number>();
  const at = (index: number | undefined, externalId: string | null | undefined) =>
    itemAt(items, index, externalId);
  for (const created of response.created) {
    const i = at(created.index, created.externalId);
    if (i === undefined || seen.has(i)) continue;
    seen.add(i);
    out.settle(items[i] as TxRecord, { outcome: 'created', serviceId: created.transactionId });
  }
  for (const skipped of response.skipped) {
    const i = at(skipped.index, skipped.externalId);
    if (i === undefined || seen.has(i)) continue;
    seen.add(i);
    const record = items[i] as TxRecord;
    const ours = sentAmbiguously.has(record.externalId);
    out.settle(record, {
      outcome: ours ? 'created' : 'skipped',
      serviceId: skipped.transactionId,
      message: ours
        ? 'created (an earlier ambiguous attempt had already written it)'
        : 'already in the service',
    });
  }
  for (const error of response.errors) {
    const i = at(error.index, error.externalId);
    if (i === undefined || seen.has(i)) continue;
    seen.add(i);
    out.settle(items[i] as TxRecord, bulkErrorOutcome(error));
  }
  return items.filter((_, i) => !seen.has(i));
}
