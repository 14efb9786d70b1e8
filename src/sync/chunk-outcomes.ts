import { ApiError } from '../client/index.js';
import type { MappedRecord } from '../sources/record.js';
import { type OutcomeFields, outcomeOf } from './build-outcome.js';
import type { RecordOutcome } from './outcome.js';
import type { ChunkContext } from './ports.js';
import { ChunkStopError, RunStopError, stopFor, stoppedOutcome } from './stop.js';

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
    // A loop, not flatMap: every record of a run passes here (flatMap showed in the sync's profile).
    const list: RecordOutcome[] = [];
    for (const record of this.records) {
      const outcome = this.#settled.get(record);
      if (outcome) list.push(outcome);
    }
    return list;
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
