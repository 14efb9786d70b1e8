import type { MapOutcome, MappedRecord } from '../../sources/record.js';
import { DecimalSum } from '../../sources/values/decimal.js';
import type { Comparison, FieldDifference } from './compare.js';
import type { HeldRecord, HeldScope } from './held.js';
import { KeyIndex, STATE } from './key-index.js';

/** What a record is, compared with the service. */
export const VERDICTS = ['equal', 'missing', 'different', 'extra', 'duplicate', 'rejected'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** One line of a reconcile report: a source record (file, line) or a service record only (extra). */
export interface ReconcileLine {
  verdict: Verdict;
  file?: string;
  line?: number;
  externalId?: string | null;
  serviceId?: number;
  /** `different`: the fields that differ, with both values. */
  fields?: FieldDifference[];
  /** The source record's amount as exact decimal text (the kind's amount field). */
  amount?: string;
  message?: string;
}

/** A record missing in the service or different from it. */
export const isDifference = (line: ReconcileLine): boolean =>
  line.verdict === 'missing' || line.verdict === 'different';

/** A difference at its place in an export: a line `--repair` syncs. */
export const toRepair = (line: ReconcileLine): line is ReconcileLine & { file: string; line: number } =>
  isDifference(line) && !!line.file && !!line.line;

/** Where the lines go: files for the CLI (src/report-files/reconcile-files.ts). */
export interface ReconcileSink {
  line(line: ReconcileLine): Promise<void>;
}

export interface ControlTotal {
  records: number;
  /** The sum of the kind's amount field; absent for kinds without amounts. */
  amount?: string;
}

export interface ReconcileResult {
  counts: Record<Verdict, number>;
  /** Records of the service's scope without an externalId: no source record can name them. */
  heldWithoutExternalId: number;
  /** Source rows the feed's `exclude` rules leave out. */
  excluded: number;
  controlTotals: { source: ControlTotal; service: ControlTotal };
  /** Lines of records missing in the service or different, per file: what `--repair` syncs. */
  repair: Map<string, Set<number>>;
}

export interface ReconcileInput {
  scope: HeldScope;
  comparison: Comparison;
  /** The kind's amount field (control totals). */
  amountField?: string;
  /** Every export of the feed, read afresh at each call (a reconcile may read them twice). */
  read(): AsyncIterable<readonly MapOutcome[]>;
  sink: ReconcileSink;
  /** How many differing service records keep their values for the report (memory bound). */
  keepDifferent?: number;
}

const KEEP_DIFFERENT = 10_000;

/**
 * Compares a feed's exports with what the service holds of the feed's scope, record by record, with
 * memory bounded by a compact index of the source's keys (key-index.ts), never two lists of objects:
 *
 * - kinds the API looks up by externalId (invoices, at most 100 per request): the source is read in
 *   batches, each looked up and compared with both sides in hand; the listing then finds the extras;
 * - kinds only listed (a bank account's transactions at the largest page size, bank accounts,
 *   users): the source is indexed (key, digest of its values, place), the listing is matched
 *   against the index (extras and equal records written as they come), and the source is read
 *   again, only when needed, for the other records' lines in the exports' order; the differing
 *   fields of the first `keepDifferent` records are named.
 */
export async function reconcileRecords(input: ReconcileInput): Promise<ReconcileResult> {
  const run = new Reconciling(input);
  if (input.scope.lookup) {
    await run.lookupPass(input.scope.lookup);
    await run.listingPass(true);
  } else {
    await run.indexPass();
    await run.listingPass(false);
    await run.linesPass();
  }
  return run.result();
}

class Reconciling {
  readonly #index = new KeyIndex();
  readonly #counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  readonly #parts = new Set<string>();
  readonly #kept = new Map<number, Readonly<Record<string, unknown>>>();
  readonly #repair = new Map<string, Set<number>>();
  readonly #sourceSum = new DecimalSum();
  readonly #serviceSum = new DecimalSum();
  #sourceRecords = 0;
  #serviceRecords = 0;
  #withoutKey = 0;
  #excluded = 0;
  /** List kinds: the exports' files by their index in the key index's places. */
  readonly #files: string[] = [];
  /** List kinds: a rejected or repeated record was met, so the exports must be read again for its line. */
  #reread = false;

  constructor(private readonly input: ReconcileInput) {}

  /** Lookup kinds: each batch of source records looked up and compared at once. */
  async lookupPass(lookup: NonNullable<HeldScope['lookup']>): Promise<void> {
    let batch: MapOutcome[] = [];
    const flush = async () => {
      const records = batch.flatMap((o) => (o.kind === 'mapped' ? [o.record] : []));
      const found = records.length > 0 ? await lookup.find(records) : new Map<string, HeldRecord>();
      for (const outcome of batch) {
        if (outcome.kind !== 'mapped') await this.#other(outcome);
        else await this.#compared(outcome.record, found.get(this.#keyOf(outcome.record)));
      }
      batch = [];
    };
    for await (const outcomes of this.input.read())
      for (const outcome of outcomes) {
        batch.push(outcome);
        if (batch.length >= lookup.size) await flush();
      }
    await flush();
  }

  async #compared(record: MappedRecord, held: HeldRecord | undefined): Promise<void> {
    const { slot, added } = this.#index.add(this.#keyOf(record));
    if (!added) return this.#write({ ...this.#of(record), verdict: 'duplicate', message: DUPLICATE });
    this.#source(record);
    const payload = record.payload as Readonly<Record<string, unknown>>;
    if (!held) return this.#write({ ...this.#of(record), verdict: 'missing' });
    const fields = this.input.comparison.differences(
      payload,
      held.values,
      this.input.comparison.maskOf(payload),
    );
    const equal = fields.length === 0;
    this.#index.match(slot, equal ? STATE.equal : STATE.different, held.id);
    await this.#write(
      equal
        ? { ...this.#of(record), verdict: 'equal', serviceId: held.id }
        : { ...this.#of(record), verdict: 'different', serviceId: held.id, fields },
    );
  }

  /** List kinds, first pass: the source's keys with their values' digests and places. */
  async indexPass(): Promise<void> {
    const { comparison } = this.input;
    for await (const outcomes of this.input.read())
      for (const outcome of outcomes) {
        if (outcome.kind === 'excluded') this.#excluded++;
        if (outcome.kind !== 'mapped') {
          this.#reread ||= outcome.kind === 'rejected';
          continue;
        }
        const { record } = outcome;
        const { slot, added } = this.#index.add(this.#keyOf(record));
        if (!added) {
          this.#reread = true;
          continue;
        }
        this.#source(record);
        if (this.#files[this.#files.length - 1] !== record.file) this.#files.push(record.file);
        this.#index.setPlace(slot, this.#files.length - 1, record.line);
        const payload = record.payload as Readonly<Record<string, unknown>>;
        const mask = comparison.maskOf(payload);
        this.#index.setValues(slot, mask, comparison.digest(payload, mask));
      }
  }

  /**
   * The service's records of the scope: each either matches a source key (list kinds: compared by
   * digest now) or is an extra, written at once. A second service record with a matched key is an
   * extra too (the service holds the externalId twice).
   */
  async listingPass(compared: boolean): Promise<void> {
    const { comparison, scope, amountField } = this.input;
    const keep = this.input.keepDifferent ?? KEEP_DIFFERENT;
    for await (const page of scope.pages(this.#parts))
      for (const held of page) {
        this.#serviceRecords++;
        const amount = amountField === undefined ? undefined : held.values[amountField];
        if (typeof amount === 'number') this.#serviceSum.add(String(amount));
        if (held.key === null) {
          this.#withoutKey++;
          continue;
        }
        const slot = this.#index.find(held.key);
        const heldBefore = slot < 0 ? undefined : this.#index.heldId(slot);
        if (slot < 0 || (heldBefore !== undefined && heldBefore !== held.id)) {
          await this.#write({
            verdict: 'extra',
            externalId: held.key,
            serviceId: held.id,
            ...(typeof amount === 'number' ? { amount: String(amount) } : {}),
            message:
              slot < 0
                ? 'in the service, not in the exports'
                : `the service holds this externalId again (also id ${heldBefore})`,
          });
          continue;
        }
        if (compared || heldBefore !== undefined) continue;
        const same = this.#index.sameDigest(slot, comparison.digest(held.values, this.#index.mask(slot)));
        this.#index.match(slot, same ? STATE.equal : STATE.different, held.id);
        if (!same) {
          if (this.#kept.size < keep) this.#kept.set(slot, held.values);
          continue;
        }
        // An equal record's line now, from its place: when every record is equal (the usual
        // case) the exports need no second read.
        this.#index.report(slot);
        const { file, line } = this.#index.place(slot);
        await this.#write({
          verdict: 'equal',
          file: this.#files[file] as string,
          line,
          externalId: held.key,
          serviceId: held.id,
          ...(typeof amount === 'number' ? { amount: String(amount) } : {}),
        });
      }
  }

  /**
   * List kinds, last pass: the lines of the records not written yet (missing, different, repeated,
   * invalid), in the exports' order; skipped when there are none.
   */
  async linesPass(): Promise<void> {
    const { comparison } = this.input;
    // Only the listing wrote lines so far, an equal one per matched key: all equal means all written.
    if (!this.#reread && this.#counts.equal === this.#index.size) return;
    for await (const outcomes of this.input.read())
      for (const outcome of outcomes) {
        if (outcome.kind === 'excluded') continue;
        if (outcome.kind !== 'mapped') {
          await this.#other(outcome);
          continue;
        }
        const { record } = outcome;
        const slot = this.#index.find(this.#keyOf(record));
        if (slot < 0) {
          // Not there at the first read: the export changed in between; its next reconcile compares it.
          await this.#write({ ...this.#of(record), verdict: 'rejected', message: CHANGED });
          continue;
        }
        if (!this.#index.reread(slot)) {
          await this.#write({ ...this.#of(record), verdict: 'duplicate', message: DUPLICATE });
          continue;
        }
        if (!this.#index.report(slot)) continue;
        const state = this.#index.state(slot);
        const serviceId = this.#index.heldId(slot);
        if (state === STATE.unmatched) await this.#write({ ...this.#of(record), verdict: 'missing' });
        else if (state === STATE.equal)
          await this.#write({ ...this.#of(record), verdict: 'equal', serviceId });
        else {
          const held = this.#kept.get(slot);
          const payload = record.payload as Readonly<Record<string, unknown>>;
          await this.#write({
            ...this.#of(record),
            verdict: 'different',
            serviceId,
            ...(held
              ? { fields: comparison.differences(payload, held, this.#index.mask(slot)) }
              : { message: `fields not named: more than ${this.#kept.size} records differ` }),
          });
        }
      }
  }

  result(): ReconcileResult {
    const withAmount = this.input.amountField !== undefined;
    return {
      counts: this.#counts,
      heldWithoutExternalId: this.#withoutKey,
      excluded: this.#excluded,
      controlTotals: {
        source: {
          records: this.#sourceRecords,
          ...(withAmount ? { amount: this.#sourceSum.toString() } : {}),
        },
        service: {
          records: this.#serviceRecords,
          ...(withAmount ? { amount: this.#serviceSum.toString() } : {}),
        },
      },
      repair: this.#repair,
    };
  }

  /** A source record counted once (its first occurrence), its scope part noted. */
  #source(record: MappedRecord): void {
    this.#sourceRecords++;
    if (record.amount !== undefined) this.#sourceSum.add(record.amount);
    const part = this.input.scope.partOf?.(record);
    if (part !== undefined) this.#parts.add(part);
  }

  async #other(outcome: Exclude<MapOutcome, { kind: 'mapped' }>): Promise<void> {
    if (outcome.kind === 'excluded') {
      this.#excluded++;
      return;
    }
    const { file, line, externalId, message, amount } = outcome.record;
    await this.#write({
      verdict: 'rejected',
      file,
      line,
      ...(externalId !== undefined ? { externalId } : {}),
      ...(amount !== undefined ? { amount } : {}),
      message: `not compared, the row is invalid: ${message}`,
    });
  }

  /** What the service finds the record by: its externalId, or what the kind says (categories: the path). */
  #keyOf(record: MappedRecord): string {
    return this.input.scope.keyOf?.(record) ?? record.externalId;
  }

  #of(record: MappedRecord): Pick<ReconcileLine, 'file' | 'line' | 'externalId' | 'amount'> {
    return {
      file: record.file,
      line: record.line,
      externalId: record.externalId,
      ...(record.amount !== undefined ? { amount: record.amount } : {}),
    };
  }

  async #write(line: ReconcileLine): Promise<void> {
    this.#counts[line.verdict]++;
    if (toRepair(line)) {
      const lines = this.#repair.get(line.file) ?? new Set<number>();
      lines.add(line.line);
      this.#repair.set(line.file, lines);
    }
    await this.input.sink.line(line);
  }
}

const DUPLICATE = 'the exports name this externalId before: compared there';
const CHANGED = 'not compared: the export changed while it was read (not there at the first read)';
