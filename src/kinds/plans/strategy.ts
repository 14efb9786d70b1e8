import { ApiError } from '../../client/index.js';
import type { BulkPlansResponse, PlanRequest } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import { type ChunkOutcomes, settleChunk } from '../../sync/chunk-outcomes.js';
import { firstOfEachKey } from '../../sync/first-of-each.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import { sendSettling } from '../../sync/send-settling.js';
import { RecheckSchedule } from '../../sync/writes/recheck.js';

type PlanRecord = MappedRecord<PlanRequest>;

const replaces = (record: PlanRecord): boolean => record.payload.replaceCurrentValuesForThePeriod === true;

/**
 * The period a replacing plan value sets, as far as it can be told without asking the service:
 * category (id, name, or the amount's sign for uncategorized), scenario (id, name, or base case),
 * period and date. Plans that add (replace false) have no key: two of them add up, as intended.
 */
function periodOf(record: PlanRecord): string | undefined {
  if (!replaces(record)) return undefined;
  const p = record.payload;
  const category =
    p.categoryId !== undefined
      ? `id:${p.categoryId}`
      : p.categoryName !== undefined
        ? `name:${p.categoryName}`
        : `uncategorized:${p.amount < 0 ? '-' : '+'}`;
  const scenario =
    p.scenarioId !== undefined
      ? `id:${p.scenarioId}`
      : p.scenarioName !== undefined
        ? `name:${p.scenarioName}`
        : 'base';
  return JSON.stringify([category, scenario, p.period, p.date]);
}

const AMBIGUOUS_ADD =
  'the answer to the bulk create was lost or a 500, so this value may or may not have been added; a plan without replaceCurrentValuesForThePeriod adds to the period and has no ID to re-check it by, so erp-bridge does not resend it (that could count it twice): check the period in the service, and use replaceCurrentValuesForThePeriod: true (the default) for feeds that are rerun';

/**
 * Sets one chunk of plan values with the bulk endpoint (a JSON array, all or nothing). Plans have
 * no externalId and no read by which to check them, so:
 * - with replaceCurrentValuesForThePeriod (the feed default, set on each payload by the mapper) a
 *   value replaces the period's value: reruns and resends are harmless, and every sent record is
 *   reported created with `valueSet`, 'value set for the period (replace)' — also on a rerun that
 *   changed nothing, which cannot be told without a read (the run's counts say "set", not
 *   "created", so a rerun does not read like duplicates);
 * - two replacing records for the same category, scenario, period and date in one chunk would let
 *   the second silently win: the second is rejected (DUPLICATE_IN_SOURCE);
 * - a 400 or 404 (CATEGORY_NOT_FOUND, SCENARIO_NOT_FOUND) naming items by index rejects those
 *   items with that code and resends the rest (sendIsolating);
 * - after an ambiguous answer (500, lost answer, or ids that do not match the request) replacing
 *   records are resent on the 1/2/4 s schedule; adding ones are NOT resent (they could count twice)
 *   and are marked failed with AMBIGUOUS_WRITE.
 * serviceIds come from planIds, in request order.
 */
export function syncPlansChunk(records: readonly PlanRecord[], ctx: ChunkContext): Promise<RecordOutcome[]> {
  return settleChunk(records, ctx, async (out) => {
    let pending = firstOfEachKey(
      records,
      out,
      periodOf,
      (first) =>
        `line ${first.line} of ${first.file} already sets this category, scenario, period and date with replaceCurrentValuesForThePeriod, so one value would silently replace the other; sum them in the export, or set replaceCurrentValuesForThePeriod: false to add them up`,
    );
    const rechecks = new RecheckSchedule(ctx, 'createPlansBulk');
    while (pending.length > 0) {
      const { progress, failure } = await sendSettling(
        pending,
        (batch) =>
          ctx.client.createPlansBulk(
            ctx.accountId,
            batch.map((r) => r.payload),
            { signal: ctx.signal },
          ),
        out,
      );
      const unconfirmed = progress.sent.flatMap(({ items, response }) => applyAnswer(items, response, out));
      if (failure !== undefined) {
        if (!(failure instanceof ApiError) || !failure.ambiguous) throw failure;
        ctx.logger.warn(
          { err: failure, records: progress.failed.length },
          'plans bulk answer lost or 500: resending only the values that replace',
        );
        unconfirmed.push(...progress.failed);
      }
      pending = [...progress.unsent];
      for (const record of unconfirmed) {
        if (replaces(record)) pending.push(record);
        else out.settle(record, { outcome: 'failed', code: 'AMBIGUOUS_WRITE', message: AMBIGUOUS_ADD });
      }
      if (pending.length > 0)
        await rechecks.wait(failure instanceof ApiError ? failure.code : 'UNACKNOWLEDGED');
    }
  });
}

/** Pairs planIds with the request's records by position; returns them all when the counts differ. */
function applyAnswer(
  items: readonly PlanRecord[],
  response: BulkPlansResponse,
  out: ChunkOutcomes<PlanRecord>,
): PlanRecord[] {
  if (response.planIds.length !== items.length) return [...items];
  items.forEach((record, i) => {
    out.settle(record, {
      outcome: 'created',
      serviceId: response.planIds[i],
      ...(replaces(record)
        ? { message: 'value set for the period (replace)', valueSet: true }
        : { message: 'value added to the period' }),
    });
  });
  return [];
}
