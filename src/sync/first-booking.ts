import type { MappedRecord } from '../sources/record.js';
import { addDecimals } from '../sources/values/decimal.js';
import { outcomeOf } from './build-outcome.js';
import type { RecordOutcome } from './outcome.js';
import type { RunHandle } from './run-handle.js';

/**
 * The claim a record's booking makes, as a record of its own for the run's first sightings: named
 * by account and bank reference (a NUL first: no externalId of a file can be it), placed at the
 * entry's line (the parts of one entry are one sighting), its content what a repeat must say again.
 */
function claimOf(record: MappedRecord): MappedRecord | undefined {
  const { booking } = record;
  if (!booking) return undefined;
  return {
    file: record.file,
    line: booking.line,
    externalId: `\u0000booking\u0000${booking.account}\u0000${booking.reference}`,
    derivedId: false,
    payload: { amount: addDecimals(booking.amount, '0'), date: booking.date },
  };
}

/**
 * Keeps the records whose booking this run has not met in another place (docs/identity.md, "One
 * booking, once"): a record's `booking` (the bank's reference of an entry, on its account) claims
 * the booking, whatever shape the entry has (one entry, a batch, the batch's details). A later
 * appearance that says the same (amount and booking date) is skipped naming the first's file and
 * line; one that says otherwise is rejected. Either way never created beside the first. The
 * repeats go to `repeats`.
 */
export async function firstOfEachBooking<R extends MappedRecord>(
  kind: string,
  batch: R[],
  claimExternalIds: NonNullable<RunHandle['claimExternalIds']>,
  repeats: RecordOutcome[],
): Promise<R[]> {
  const booked = batch.filter((record) => record.booking !== undefined);
  if (booked.length === 0) return batch;
  const claims = booked.map((record) => claimOf(record) as MappedRecord);
  const seen = await claimExternalIds(kind, claims);
  const repeated = new Set<R>();
  booked.forEach((record, i) => {
    const first = seen[i];
    const booking = record.booking;
    if (!first || !booking) return;
    repeated.add(record);
    const what = `the booking with the bank's reference "${booking.reference}"${booking.account ? ` of account ${booking.account}` : ''}`;
    repeats.push(
      first.sameContent
        ? outcomeOf(record, {
            outcome: 'skipped',
            code: 'DUPLICATE_IN_SOURCE',
            message: `same booking as ${first.file}:${first.line} (${what}, same amount and booking date), here again as another appearance of it; synced once, from there`,
          })
        : outcomeOf(record, {
            outcome: 'rejected',
            code: 'DUPLICATE_IN_SOURCE',
            message: `${what} already appears at ${first.file}:${first.line} in this run with another amount or booking date (here ${booking.amount} on ${booking.date}); only that first is synced, never one beside it: ask the bank which is right`,
          }),
    );
  });
  return repeated.size === 0 ? batch : batch.filter((record) => !repeated.has(record));
}
