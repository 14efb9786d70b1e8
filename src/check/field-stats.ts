import type { MappedRecord, RecordProblem } from '../sources/record.js';
import type { RecordOutcome } from '../sync/outcome.js';

/** Where a problem was found and why. */
export interface Example {
  file: string;
  line: number;
  /** A database row's key: the row is `file:key` (placeOf). */
  key?: string;
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
    const where = {
      file: outcome.file,
      line: outcome.line,
      ...(outcome.key !== undefined ? { key: outcome.key } : {}),
    };
    if (outcome.problems && this.#blame(outcome.problems, where)) return;
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

  /**
   * Counts a rejected row once for each mapped field its problems name (the mapper's, sources/
   * mapper.ts), with that field's messages as the example; false when they name none. A problem
   * of the whole row beside them is not counted again.
   */
  #blame(problems: readonly RecordProblem[], where: Omit<Example, 'reason'>): boolean {
    const reasons = new Map<FieldCount, string[]>();
    for (const { field, message } of problems) {
      const count = field === undefined ? undefined : this.#fields.get(field);
      if (!count) continue;
      const said = reasons.get(count);
      if (said) said.push(message);
      else reasons.set(count, [message]);
    }
    for (const [count, messages] of reasons) {
      count.rejected++;
      if (count.examples.length < this.examplesEach)
        count.examples.push({ ...where, reason: messages.join('; ') });
    }
    return reasons.size > 0;
  }

  fields(): FieldCount[] {
    return [...this.#fields.values()];
  }

  other(): OtherCount[] {
    return [...this.#other.values()];
  }
}
