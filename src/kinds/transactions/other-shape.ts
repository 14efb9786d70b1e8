import type { Transaction } from '../../contract/index.js';
import { type Booking, bookingPartId } from '../../sources/booking.js';
import type { MappedRecord } from '../../sources/record.js';
import { decimalOf } from '../../sources/values/amount.js';
import { addDecimals, isZeroDecimal, negateDecimal } from '../../sources/values/decimal.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import { askExistence, heldInAnotherShape } from './existing.js';
import { dateOf, fetchHeld } from './held-fetch.js';
import { judgeOtherSplits } from './other-split.js';

/*
 * A booking the service holds in another shape than a record's (docs/identity.md, "One booking,
 * once"): the existence check says only that an ID is there, so the rare records that hit another
 * shape fetch what it holds and compare the amount (a batch's parts summed) and booking date. An
 * ordinary rerun of the same shape (its own externalId held) never gets here.
 */

/** Parts asked for at a time beyond the first, per booking held as parts. */
const PART_WINDOW = 15;

/** What a record of a booking finds held in another shape: the IDs to compare with, if any. */
interface Hit {
  record: MappedRecord;
  booking: Booking;
  /** The other shape's ID the existence check found first. */
  first: string;
  /** The service's shape is the booking's parts (summed); else its one entry. */
  parts: boolean;
  /** The verdict when what is held cannot be compared: skipped, as the existence check alone says. */
  unjudged: OutcomeFields;
}

/**
 * The outcome of each of `records` whose own externalId `existing` lacks but whose booking the
 * bank account holds in another shape: skipped when what it holds says the same amount and
 * booking date, rejected `DUPLICATE_IN_SOURCE` naming what it holds when it differs. Likewise a
 * part whose booking the service holds split otherwise (other-split.ts). Records absent from the
 * answer are to be created. A part found under the name an earlier version gave it (the same
 * shape) is skipped without a fetch.
 */
export async function judgeOtherShapes(
  records: readonly MappedRecord[],
  existing: ReadonlyMap<string, number | undefined>,
  bankAccountId: number,
  ctx: ChunkContext,
): Promise<Map<MappedRecord, OutcomeFields>> {
  const verdicts = new Map<MappedRecord, OutcomeFields>();
  const hits: Hit[] = [];
  const unshaped: MappedRecord[] = [];
  for (const record of records) {
    const renamed = heldInAnotherShape(record, existing);
    const booking = record.booking;
    if (!renamed || !booking) {
      unshaped.push(record);
      continue;
    }
    const unjudged: OutcomeFields = { outcome: 'skipped', ...renamed };
    const first = booking.others.find((id) => existing.has(id)) as string;
    // The record is the booking's one entry: the service holds its parts (by place, or by the
    // names of an earlier version). A part: the service holds the one entry, or the same part
    // under an earlier name (then nothing to compare).
    const parts = record.externalId === booking.reference;
    if (parts || first === booking.reference) hits.push({ record, booking, first, parts, unjudged });
    else verdicts.set(record, unjudged);
  }
  // A part held in neither shape may be missing from a booking the service holds split otherwise.
  for (const [record, verdict] of await judgeOtherSplits(unshaped, existing, bankAccountId, ctx))
    verdicts.set(record, verdict);
  if (hits.length === 0) return verdicts;
  const held = await withLaterParts(hits, existing, bankAccountId, ctx);
  const heldIds = (hit: Hit) => (hit.parts ? partsHeld(hit.booking, held) : [hit.first]);
  const fetched = await fetchHeld(new Set(hits.flatMap(heldIds)), held, bankAccountId, ctx);
  for (const hit of hits) {
    const ids = heldIds(hit);
    const transactions = ids.flatMap((id) => fetched.get(id) ?? []);
    verdicts.set(hit.record, compared(hit, ids, transactions));
  }
  return verdicts;
}

/**
 * `existing` with the later parts (`R/#2` on) of the bookings held as parts: asked for a window at
 * a time, while a booking's whole window is there (parts are numbered from 1 without gaps).
 */
async function withLaterParts(
  hits: readonly Hit[],
  existing: ReadonlyMap<string, number | undefined>,
  bankAccountId: number,
  ctx: ChunkContext,
): Promise<Map<string, number | undefined>> {
  const held = new Map(existing);
  let open = [
    ...new Set(
      hits
        .filter((hit) => hit.parts && held.has(bookingPartId(hit.booking.reference, 1)))
        .map((hit) => hit.booking.reference),
    ),
  ];
  for (let from = 2; open.length > 0; from += PART_WINDOW) {
    const window = (reference: string) =>
      Array.from({ length: PART_WINDOW }, (_, i) => bookingPartId(reference, from + i));
    await askExistence(open.flatMap(window), bankAccountId, ctx, held);
    open = open.filter((reference) => window(reference).every((id) => held.has(id)));
  }
  return held;
}

/** The IDs under which the service holds a booking's parts: by place from 1, else earlier names. */
function partsHeld(booking: Booking, held: ReadonlyMap<string, number | undefined>): string[] {
  const byPlace: string[] = [];
  for (let n = 1; held.has(bookingPartId(booking.reference, n)); n++)
    byPlace.push(bookingPartId(booking.reference, n));
  return byPlace.length > 0 ? byPlace : booking.others.filter((id) => held.has(id));
}

/** Skipped when the service's shape says the same amount and booking date; rejected otherwise. */
function compared(hit: Hit, ids: readonly string[], transactions: readonly Transaction[]): OutcomeFields {
  // A transaction the list did not show (gone since the existence check): never created beside it.
  if (transactions.length < ids.length) return hit.unjudged;
  const { booking } = hit;
  const serviceId = transactions[0]?.id;
  const what = `the booking with the bank's reference "${booking.reference}"`;
  const sum = transactions.reduce((total, t) => addDecimals(total, decimalOf(t.amount)), '0');
  const dates = [...new Set(transactions.map(dateOf))];
  const shape = hit.parts ? `its ${ids.length} part${ids.length === 1 ? '' : 's'}, together` : 'one entry,';
  const holds = `"${ids[0]}" (${shape} ${sum} on ${dates.join(', ')})`;
  const same =
    isZeroDecimal(addDecimals(sum, negateDecimal(booking.amount))) &&
    dates.length === 1 &&
    dates[0] === booking.date;
  const fields = serviceId === undefined ? {} : { serviceId };
  if (same)
    return {
      outcome: 'skipped',
      ...fields,
      message: `already in the service as ${holds}: ${what} in another shape (as one entry, or as the parts of its batch), the same amount and booking date; not created beside it`,
    };
  const here = hit.parts
    ? `here as one entry of ${booking.amount} on ${booking.date}`
    : `here as a part of its batch of ${booking.amount} on ${booking.date}`;
  return {
    outcome: 'rejected',
    code: 'DUPLICATE_IN_SOURCE',
    ...fields,
    message: `${what} is already in the service as ${holds}, ${here}: another amount or booking date; not created beside it: ask the bank which is right`,
  };
}
