import type { RecordOutcome } from '../outcome.js';

/** The records of a kind the partner API can create but not change (only invoices have an update). */
const NO_UPDATE: Readonly<Record<string, string>> = {
  transactions: 'bank transactions',
  'bank-accounts': 'bank accounts',
  users: 'users',
  categories: 'categories (beyond the type of a top-level one)',
};

/**
 * Why a record `reconcile --repair` synced is still not as the export says, and what the person
 * can do: the repair's sync reports such a record skipped ("already in the service"), which alone
 * reads as if nothing were wrong.
 */
export function repairAdvice(kind: string, outcome: RecordOutcome): string {
  if (outcome.outcome === 'rejected')
    return "the service or the feed refused the export's record: fix the row as the message says, then run --repair again";
  if (outcome.outcome === 'failed') return 'it failed for now: run --repair again';
  if (outcome.message === 'exists; feed mode insert')
    return "the feed's mode is insert, which never changes what is there: set mode: upsert in the feed file and run --repair again, or change it in the service by hand";
  const noUpdate = NO_UPDATE[kind];
  if (noUpdate)
    return `the partner API has no update for ${noUpdate}: change it in the service by hand, or delete it there and run --repair again to create it from the export; if the export is what is wrong, correct the export`;
  return 'change it in the service by hand, or correct the export; the repair report has the record';
}
