import type { Transaction } from '../../contract/index.js';
import {
  type Booking,
  bookingPartId,
  bookingPartNumber,
  firstPartOf,
  splitAmounts,
} from '../../sources/booking.js';
import type { MappedRecord } from '../../sources/record.js';
import { decimalOf } from '../../sources/values/amount.js';
import { addDecimals, isZeroDecimal, negateDecimal } from '../../sources/values/decimal.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import { askExistence } from './existing.js';
import { dateOf, fetchHeld } from './held-fetch.js';

/*
 * A batch booking the service holds in another split than a file's (docs/identity.md, "One
 * booking, once"): an earlier file gave its details 4.00 + 6.00, this one 4.00 + 3.00 + 3.00. Part
 * `R/#3` finds neither itself nor the booking's one entry `R`, but `R/#1`, which every later part
 * asks for. The parts the service holds are then compared with the file's split, place by place:
 * the same (this run's own parts, in whatever order its chunks ran, or an earlier run's that ended
 * part-way) lets the missing part be created; another split is the booking already in the service
 * (skipped when its parts add up to the booking's amount on its date) or another booking than the
 * file says (rejected). Nothing of the run is remembered: what is held and the file decide.
 */

/** Held parts compared at most per booking before a split counts as the same: spread over it. */
const SAMPLE = 16;
/** Amounts of the file's split named in a message at most. */
const NAMED = 10;

/** The parts of one batch in a chunk that the service lacks while it holds the first. */
interface Batch {
  booking: Booking;
  amounts: string[];
  records: MappedRecord[];
  /** The places (from 1) of the file's parts the service holds. */
  held: number[];
}

/**
 * The verdict on each of `records` (held neither as themselves nor in another shape) whose booking
 * the service holds as parts split otherwise than the file: skipped when those parts add up to the
 * booking's amount on its date, rejected `DUPLICATE_IN_SOURCE` otherwise. Records absent from the
 * answer are created, as the parts of the file's own split.
 */
export async function judgeOtherSplits(
  records: readonly MappedRecord[],
  existing: ReadonlyMap<string, number | undefined>,
  bankAccountId: number,
  ctx: ChunkContext,
): Promise<Map<MappedRecord, OutcomeFields>> {
  const verdicts = new Map<MappedRecord, OutcomeFields>();
  const batches = batchesOf(records, existing);
  if (batches.length === 0) return verdicts;
  // Which of the file's parts the service holds: one existence check for all of them.
  const held = new Map(existing);
  const partIds = batches.flatMap(({ booking, amounts }) =>
    amounts.map((_, i) => bookingPartId(booking.reference, i + 1)),
  );
  await askExistence(
    partIds.filter((id) => !held.has(id)),
    bankAccountId,
    ctx,
    held,
  );
  for (const batch of batches)
    batch.held = batch.amounts.flatMap((_, i) =>
      held.has(bookingPartId(batch.booking.reference, i + 1)) ? [i + 1] : [],
    );
  // A few parts of each first (most such chunks are the next of a run's own split); all of a
  // batch split otherwise, to add them up.
  const idsOf = (batch: Batch, places: readonly number[]) =>
    places.map((n) => bookingPartId(batch.booking.reference, n));
  const sampled = await fetchHeld(
    new Set(batches.flatMap((batch) => idsOf(batch, sampleOf(batch.held)))),
    held,
    bankAccountId,
    ctx,
  );
  const otherwise = batches.filter((batch) =>
    sampleOf(batch.held).some(
      (n) => !samePart(sampled.get(bookingPartId(batch.booking.reference, n)), batch, n),
    ),
  );
  if (otherwise.length === 0) return verdicts;
  const rest = new Set(
    otherwise.flatMap((batch) => idsOf(batch, batch.held)).filter((id) => !sampled.has(id)),
  );
  const fetched = new Map([...sampled, ...(await fetchHeld(rest, held, bankAccountId, ctx))]);
  for (const batch of otherwise) {
    const transactions = idsOf(batch, batch.held).flatMap((id) => fetched.get(id) ?? []);
    for (const record of batch.records) verdicts.set(record, compared(batch, record, transactions));
  }
  return verdicts;
}

/** The batches of `records` whose first part the service holds, the records grouped by booking. */
function batchesOf(
  records: readonly MappedRecord[],
  existing: ReadonlyMap<string, number | undefined>,
): Batch[] {
  const batches = new Map<string, Batch>();
  for (const record of records) {
    const booking = record.booking;
    const first = booking && firstPartOf(booking, record.externalId);
    if (!first || booking?.split === undefined || !existing.has(first)) continue;
    const key = `${booking.reference}\u0000${booking.split}`;
    const batch = batches.get(key);
    if (batch) batch.records.push(record);
    else batches.set(key, { booking, amounts: splitAmounts(booking.split), records: [record], held: [] });
  }
  return [...batches.values()];
}

/** Up to SAMPLE of `places`, the first and the last among them, the others spread between. */
function sampleOf(places: readonly number[]): number[] {
  if (places.length <= SAMPLE) return [...places];
  const step = (places.length - 1) / (SAMPLE - 1);
  return [...new Set(Array.from({ length: SAMPLE }, (_, i) => places[Math.round(i * step)] as number))];
}

/** The held part `n` says what the file's part `n` says: its amount, on the booking's date. */
function samePart(transaction: Transaction | undefined, batch: Batch, n: number): boolean {
  const amount = batch.amounts[n - 1];
  return (
    transaction !== undefined &&
    amount !== undefined &&
    isZeroDecimal(addDecimals(decimalOf(transaction.amount), negateDecimal(amount))) &&
    dateOf(transaction) === batch.booking.date
  );
}

/** Skipped when the parts held add up to the booking's amount on its date; rejected otherwise. */
function compared(batch: Batch, record: MappedRecord, transactions: readonly Transaction[]): OutcomeFields {
  const { booking, amounts } = batch;
  const first = bookingPartId(booking.reference, 1);
  const what = `the booking with the bank's reference "${booking.reference}"`;
  const sum = transactions.reduce((total, t) => addDecimals(total, decimalOf(t.amount)), '0');
  const dates = [...new Set(transactions.map(dateOf))];
  const count = batch.held.length;
  const holds = `"${first}" (its ${count} part${count === 1 ? '' : 's'}, together ${sum} on ${dates.join(', ')})`;
  const named = amounts.slice(0, NAMED).join(', ') + (amounts.length > NAMED ? ', …' : '');
  const n = bookingPartNumber(booking.reference, record.externalId);
  const here = `here part ${n} of a batch of ${booking.amount} on ${booking.date} split into ${amounts.length} (${named})`;
  const serviceId = transactions[0]?.id;
  const fields = serviceId === undefined ? {} : { serviceId };
  // A held part gone since the existence check: never created beside the others.
  if (transactions.length < count)
    return {
      outcome: 'skipped',
      ...fields,
      message: `already in the service as "${first}": ${what} split otherwise, ${here}; not created beside it`,
    };
  const whole =
    isZeroDecimal(addDecimals(sum, negateDecimal(booking.amount))) &&
    dates.length === 1 &&
    dates[0] === booking.date;
  if (whole)
    return {
      outcome: 'skipped',
      ...fields,
      message: `already in the service as ${holds}: ${what} split otherwise, ${here}; the same amount and booking date, so the whole booking is there; not created beside it`,
    };
  return {
    outcome: 'rejected',
    code: 'DUPLICATE_IN_SOURCE',
    ...fields,
    message: `${what} is already in the service as ${holds}, ${here}: another split, amount or booking date; not created beside it: ask the bank which is right`,
  };
}
