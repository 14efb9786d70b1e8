import { ApiError } from '../client/index.js';
import type { BulkItemError } from '../contract/index.js';
import { secrets } from '../logging/secret-scrubber.js';
import type { MappedRecord } from '../sources/record.js';
import { describeCauses, type IsolationProgress, isolationProgress, sendIsolating } from './isolate.js';
import type { RecordOutcome } from './outcome.js';
import type { ChunkContext } from './ports.js';
import { ChunkStopError, RunStopError, stopFor, stoppedOutcome } from './stop.js';

/** What a strategy decides about a record; file, line, externalId and amount come from the record. */
export type OutcomeFields = Omit<RecordOutcome, 'file' | 'line' | 'externalId' | 'amount'>;

export const outcomeOf = (record: MappedRecord, fields: OutcomeFields): RecordOutcome => ({
  file: record.file,
  line: record.line,
  externalId: record.externalId,
  amount: record.amount,
  ...fields,
  // A failure's message may quote a server (a bulk item error, any error's message): no secret in
  // it reaches the report, in any encoding. Only failures pay for the scrub.
  ...(fields.message !== undefined && (fields.outcome === 'failed' || fields.outcome === 'rejected')
    ? { message: secrets.scrub(fields.message) }
    : {}),
});

/** Every record of a batch failed for one reason (a stopped run, a chunk that could not run). */
export const failedAll = (
  records: readonly MappedRecord[],
  why: { code: string; message: string },
): RecordOutcome[] =>
  records.map((record) => outcomeOf(record, { outcome: 'failed', code: why.code, message: why.message }));

/**
 * The outcomes of one chunk, one per record: the first decision about a record settles it (a later
 * one is ignored, so no path can report a record twice), and `list()` gives them in input order.
 */
export class ChunkOutcomes<R extends MappedRecord> {
  readonly #settled = new Map<R, RecordOutcome>();

  constructor(readonly records: readonly R[]) {}

  settle(record: R, fields: OutcomeFields): void {
    if (!this.#settled.has(record)) this.#settled.set(record, outcomeOf(record, fields));
  }

  has(record: R): boolean {
    return this.#settled.has(record);
  }

  /** Settles every record that has no outcome yet. */
  settleRest(fields: OutcomeFields): void {
    for (const record of this.records) this.settle(record, fields);
  }

  list(): RecordOutcome[] {
    return this.records.flatMap((record) => this.#settled.get(record) ?? []);
  }
}

/**
 * Runs a strategy's work for one chunk and guarantees exactly one outcome per record. Errors that
 * doom the run are thrown as ChunkStopError (stopFor), with the outcomes settled so far and the
 * rest failed with the stop reason; an abort is passed on, and any other failure
 * (the service kept failing, an answer out of contract) marks the records without an outcome
 * failed: they are transient, and the next run re-checks them before sending anything.
 */
export async function settleChunk<R extends MappedRecord>(
  records: readonly R[],
  ctx: ChunkContext,
  work: (out: ChunkOutcomes<R>) => Promise<void>,
): Promise<RecordOutcome[]> {
  const out = new ChunkOutcomes(records);
  try {
    await work(out);
  } catch (error) {
    const stop = error instanceof RunStopError ? error : stopFor(error);
    if (stop) {
      out.settleRest(stoppedOutcome(stop));
      throw new ChunkStopError(stop, out.list());
    }
    if (ctx.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw error;
    const code = error instanceof ApiError ? error.code : 'UNEXPECTED_ERROR';
    const message = error instanceof Error ? error.message : String(error);
    out.settleRest({ outcome: 'failed', code, message });
  }
  // A record the work left without an outcome would vanish from the report and the control totals.
  out.settleRest({
    outcome: 'failed',
    code: 'NO_OUTCOME',
    message: 'the strategy decided nothing for this record (a bug in erp-bridge); the next run retries it',
  });
  return out.list();
}

/**
 * Keeps the first record of each key and rejects later ones as DUPLICATE_IN_SOURCE, naming the
 * first's line: two records for one target in a chunk would otherwise race (two creates make two
 * invoices or bank accounts; two replacing plan values let the second silently win). Records
 * without a key (undefined) are always kept.
 */
export function firstOfEachKey<R extends MappedRecord>(
  records: readonly R[],
  out: ChunkOutcomes<R>,
  keyOf: (record: R) => string | undefined,
  why: (first: R) => string,
): R[] {
  const firsts = new Map<string, R>();
  const kept: R[] = [];
  for (const record of records) {
    const key = keyOf(record);
    const first = key === undefined ? undefined : firsts.get(key);
    if (first) {
      out.settle(record, { outcome: 'rejected', code: 'DUPLICATE_IN_SOURCE', message: why(first) });
      continue;
    }
    if (key !== undefined) firsts.set(key, record);
    kept.push(record);
  }
  return kept;
}

/** firstOfEachKey by externalId: one record per target (invoices, bank accounts). */
export const firstOfEachExternalId = <R extends MappedRecord>(
  records: readonly R[],
  out: ChunkOutcomes<R>,
): R[] =>
  firstOfEachKey(
    records,
    out,
    (r) => r.externalId,
    (first) =>
      `externalId "${first.externalId}" already appears on line ${first.line} of ${first.file} in this chunk; only that first record is synced: remove or merge the duplicate in the export`,
  );

/**
 * sendIsolating for a chunk's records, with its rejections settled at once. A failure is returned,
 * not thrown, next to `progress` (what was answered, which batch failed, what was never sent), so
 * the caller settles every answered record before it decides what the failure means.
 */
export async function sendSettling<R extends MappedRecord, A>(
  records: R[],
  send: (batch: R[]) => Promise<A>,
  out: ChunkOutcomes<R>,
): Promise<{ progress: IsolationProgress<R, A>; failure: unknown }> {
  const progress = isolationProgress<R, A>();
  let failure: unknown;
  try {
    await sendIsolating(records, send, progress);
  } catch (error) {
    failure = error;
  }
  for (const { item, code, message } of progress.rejected)
    out.settle(item, { outcome: 'rejected', code, message });
  return { progress, failure };
}

/** How a strategy treats one service code on a single-record write (overrides the defaults). */
export interface Refusal {
  outcome: 'rejected' | 'failed';
  advice: string;
}

/**
 * What a refused single-record write (PATCH, create) means for that record: 400, 404 and 409 are
 * the record's problem (rejected, with the service's causes), `special` codes take the outcome and
 * advice given. Undefined when the error concerns more than the record (run stops, 429, network,
 * ambiguous answers): the caller handles or rethrows it.
 */
export function refusalOf(
  error: unknown,
  special: Readonly<Record<string, Refusal>> = {},
): OutcomeFields | undefined {
  if (!(error instanceof ApiError) || error.kind !== 'service' || error.ambiguous) return undefined;
  const code = error.serviceCode ?? error.code;
  const chosen = special[code];
  if (!chosen && (stopFor(error) || ![400, 404, 409].includes(error.status ?? 0))) return undefined;
  const detail = describeCauses(error.causes);
  const message = [error.message, detail && `causes: ${detail}`, chosen?.advice].filter(Boolean).join(' — ');
  return { outcome: chosen?.outcome ?? 'rejected', code, message };
}

/**
 * Position in `items` of a bulk answer's entry: its `index` when that item carries the entry's
 * externalId (or the entry names none), else the item with that externalId; undefined if neither.
 */
export function itemAt(
  items: readonly MappedRecord[],
  index: number | undefined,
  externalId: string | null | undefined,
): number | undefined {
  const item = index === undefined ? undefined : items[index];
  if (index !== undefined && item && (externalId == null || item.externalId === externalId)) return index;
  const found = externalId == null ? -1 : items.findIndex((r) => r.externalId === externalId);
  return found >= 0 ? found : undefined;
}

/** A bulk answer's `errors` entry as the rejection of its record. */
export function bulkErrorOutcome(error: BulkItemError): OutcomeFields {
  const detail = error.causes ? describeCauses(error.causes) : '';
  return {
    outcome: 'rejected',
    code: error.error ?? 'INVALID_REQUEST',
    message: [error.message, detail].filter(Boolean).join(': ') || 'refused by the service',
  };
}
