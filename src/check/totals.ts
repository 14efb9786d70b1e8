import type { Feed } from '../config/feed.js';
import { KINDS } from '../kinds/registry.js';
import type { MappedRecord } from '../sources/record.js';
import { DecimalSum } from '../sources/values/decimal.js';
import type { RecordOutcome } from '../sync/outcome.js';
import { type RunSummary, RunTally } from '../sync/report/summary.js';

/** Where the records' currency is not known (a kind without one: plans, invoices without a currency). */
export const NO_CURRENCY = '(no currency)';

export interface CheckTotals {
  /** Records that would be sent: how many, and their amounts summed exactly per currency. */
  wouldSend: { records: number; amounts: Record<string, string> };
  /** What the import reported (rejected, skipped, failed), as a sync's summary counts it. */
  reported: RunSummary['controlTotals'];
  /** Per date field of the kind: the earliest and latest date of the records that would be sent. */
  dates: Record<string, { from: string; to: string }>;
}

/**
 * The control totals of a check: the records that would be sent per currency (a sum across
 * currencies says nothing), the rest as a sync's summary tallies them (RunTally), and the date
 * range of each date field.
 */
export class Totals {
  readonly #sums = new Map<string, DecimalSum>();
  readonly #tally = new RunTally();
  readonly #dates = new Map<string, { from: string; to: string }>();
  readonly #dateFields: string[];
  /** The currency of records that name none: their target bank account's (a transactions feed's). */
  readonly #pinned: string | undefined;
  #records = 0;

  constructor(feed: Feed) {
    this.#pinned = KINDS[feed.kind].pinnedCurrency?.(feed);
    this.#dateFields = Object.entries(KINDS[feed.kind].fields)
      .filter(([, spec]) => spec.type === 'date')
      .map(([field]) => field);
  }

  wouldSend(record: MappedRecord): void {
    this.#records++;
    const payload = record.payload as Record<string, unknown>;
    if (record.amount !== undefined) {
      const currency =
        (typeof payload.currency === 'string' ? payload.currency : undefined) ??
        record.route?.currency ??
        this.#pinned ??
        NO_CURRENCY;
      let sum = this.#sums.get(currency);
      if (!sum) {
        sum = new DecimalSum();
        this.#sums.set(currency, sum);
      }
      sum.add(record.amount);
    }
    for (const field of this.#dateFields) {
      const value = payload[field];
      if (typeof value !== 'string') continue;
      const range = this.#dates.get(field);
      // ISO dates (yyyy-MM-dd, as the contract takes them) sort as text.
      if (!range) this.#dates.set(field, { from: value, to: value });
      else if (value < range.from) range.from = value;
      else if (value > range.to) range.to = value;
    }
  }

  outcome(outcome: RecordOutcome): void {
    this.#tally.add(outcome);
  }

  result(): CheckTotals {
    return {
      wouldSend: {
        records: this.#records,
        amounts: Object.fromEntries(
          [...this.#sums].sort(([a], [b]) => a.localeCompare(b)).map(([c, s]) => [c, s.toString()]),
        ),
      },
      reported: this.#tally.controlTotals(),
      dates: Object.fromEntries(this.#dates),
    };
  }

  counts(): RunSummary['counts'] {
    return this.#tally.countsSnapshot();
  }
}
