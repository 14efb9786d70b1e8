import type { MappedRecord } from '../sources/record.js';
import type { RecordOutcome } from '../sync/outcome.js';
import { blamedFields } from './rejection-fields.js';

/** Where a problem was found and why. */
export interface Example {
  file: string;
  line: number;
  reason: string;
}

/** One mapped field over a feed's rows. */
export interface FieldCount {
  field: string;
  /** Records that would be sent with a value in the field. */
  values: number;
  /** Records that would be sent without one (an empty cell of an optional field). */
  empty: number;
  /** Rows rejected for this field's value. */
  rejected: number;
  /** The first few of those, with file and line. */
  examples: Example[];
}

/** The rejections and skips that name no mapped field, by code (an unreadable row, a duplicate, a layout). */
export interface OtherCount {
  code: string;
  outcome: 'rejected' | 'skipped' | 'failed';
  count: number;
  examples: Example[];
}

/**
 * Counts, per mapped field, the values of the records that would be sent and the rows rejected
 * for it; the problems that name no field go by their code. Only the rows a field was read in
 * count for it: a row rejected for another field tells nothing of this one's cell.
 */
export class FieldStats {
  readonly #fields: Map<string, FieldCount>;
  readonly #other = new Map<string, OtherCount>();

  constructor(
    fields: readonly string[],
    private readonly examplesEach: number,
  ) {
    this.#fields = new Map(
      fields.map((field) => [field, { field, values: 0, empty: 0, rejected: 0, examples: [] }]),
    );
  }

  wouldSend(record: MappedRecord): void {
    const payload = record.payload as Record<string, unknown>;
    for (const count of this.#fields.values()) {
      // The externalId is always in a payload that carries one: derived when the source has none.
      const value = count.field === 'externalId' ? !record.derivedId : payload[count.field] !== undefined;
      if (value) count.values++;
      else count.empty++;
    }
  }

  outcome(outcome: RecordOutcome): void {
    if (outcome.outcome !== 'rejected' && outcome.outcome !== 'skipped' && outcome.outcome !== 'failed')
      return;
    const message = outcome.message ?? '';
    const where = { file: outcome.file, line: outcome.line };
    const blamed = outcome.code === 'INVALID_RECORD' ? blamedFields(message, [...this.#fields.keys()]) : [];
    const named = blamed.filter((b) => b.field !== undefined);
    for (const { field, reason } of named) {
      const count = this.#fields.get(field as string) as FieldCount;
      count.rejected++;
      if (count.examples.length < this.examplesEach) count.examples.push({ ...where, reason });
    }
    if (named.length > 0) return;
    const code = outcome.code ?? outcome.outcome;
    const key = `${outcome.outcome} ${code}`;
    let other = this.#other.get(key);
    if (!other) {
      other = { code, outcome: outcome.outcome, count: 0, examples: [] };
      this.#other.set(key, other);
    }
    other.count++;
    if (other.examples.length < this.examplesEach) other.examples.push({ ...where, reason: message });
  }

  fields(): FieldCount[] {
    return [...this.#fields.values()];
  }

  other(): OtherCount[] {
    return [...this.#other.values()];
  }
}
