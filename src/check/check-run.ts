import type { MappedRecord } from '../sources/record.js';
import type { RecordOutcome } from '../sync/outcome.js';
import type { RunSummary } from '../sync/report/summary.js';
import type { RunHandle, StopReason } from '../sync/run-handle.js';
import { type FirstSeen, SeenIds } from '../sync/seen-ids.js';

/** Hears each outcome the import reports and each record it would send, in file order. */
export interface CheckListener {
  outcome(outcome: RecordOutcome): void;
  wouldSend(record: MappedRecord): void;
}

/**
 * The run handle `check` gives the import (sync/import-file.ts): the same run-wide claims of
 * externalIds as a sync's (MemoryRun: SeenIds by runKey), so duplicates are found as sync finds
 * them; nothing is sent. Unlike a sync's run, a stop holds for its file only (`nextFile`): one file
 * that cannot be read does not keep the others of the feed from being checked.
 */
export class CheckRun implements RunHandle {
  readonly runId: string;
  readonly #seen = new SeenIds();
  #fileStop: StopReason | undefined;
  readonly stops: StopReason[] = [];
  readonly report: RunHandle['report'];

  constructor(
    feed: string,
    private readonly listener: CheckListener,
  ) {
    this.runId = `check-${feed}`;
    this.report = {
      record: async (outcomes: readonly RecordOutcome[]) => {
        for (const outcome of outcomes) listener.outcome(outcome);
      },
      finish: async (_summary: RunSummary) => {},
    };
  }

  /** A new file begins: the last file's stop is kept in `stops`, not held against this one. */
  nextFile(): void {
    this.#fileStop = undefined;
  }

  async stopReason(): Promise<StopReason | undefined> {
    return this.#fileStop;
  }

  async stop(reason: StopReason): Promise<void> {
    if (this.#fileStop) return;
    this.#fileStop = reason;
    this.stops.push(reason);
  }

  async wouldSend(records: readonly MappedRecord[]): Promise<void> {
    for (const record of records) this.listener.wouldSend(record);
  }

  async claimExternalIds(kind: string, records: readonly MappedRecord[]): Promise<(FirstSeen | undefined)[]> {
    return records.map((record) => this.#seen.claimRun(kind, record));
  }
}
