import type { MappedRecord } from '../sources/record.js';
import { keptOutcomes, type RecordOutcome } from '../sync/outcome.js';
import type { AccountStop, AccountStops } from '../sync/ports.js';
import type { ReportSink } from '../sync/report/sink.js';
import type { RunSummary } from '../sync/report/summary.js';
import { RunTally } from '../sync/report/summary.js';
import type { KeptRun } from '../sync/run/run-port.js';
import type { RunHandle, StopReason } from '../sync/run-handle.js';
import { type FirstSeen, SeenIds } from '../sync/seen-ids.js';

/** Hears what the run has done: records settled (the report), bytes of the exports read. */
export type ProgressListener = (delta: { records: number; bytes: number }) => void;

/**
 * A run of this process: tallies outcomes on their way to the sink and keeps the stop state; its
 * end (sync/run/finish-run.ts) reads the tally kept here (`kept`) and stores the summary in the sink.
 */
export class MemoryRun implements RunHandle {
  readonly #tally = new RunTally();
  #wouldSend = 0;
  /** Records that ended `failed`, per file name: which files another run must read (after-care). */
  readonly #failedLines = new Map<string, number[]>();
  #summary: RunSummary | undefined;
  #judged = false;
  private stopped: StopReason | undefined;
  /** Every externalId of the run so far (compact hashes; seen-ids.ts). */
  private readonly seen = new SeenIds();
  readonly report: ReportSink;
  /** Set once the run may write: stores the feed's identity settings before the first write. */
  beforeWrite?: () => Promise<void>;

  constructor(
    readonly runId: string,
    sink: ReportSink,
    private readonly onWouldSend: (records: readonly MappedRecord[]) => Promise<void>,
    private readonly onProgress: ProgressListener = () => {},
    /** Hears each batch once it is in the report (metrics), as the fleet's run store does. */
    private readonly onStored?: (outcomes: readonly RecordOutcome[]) => void,
  ) {
    this.report = {
      record: async (recorded: readonly RecordOutcome[]) => {
        const outcomes = keptOutcomes(recorded);
        for (const outcome of outcomes) {
          this.#tally.add(outcome);
          if (outcome.outcome === 'failed') {
            const lines = this.#failedLines.get(outcome.file);
            if (lines) lines.push(outcome.line);
            else this.#failedLines.set(outcome.file, [outcome.line]);
          }
        }
        await sink.record(outcomes);
        this.onStored?.(outcomes);
        this.onProgress({ records: outcomes.length, bytes: 0 });
      },
      finish: (summary: RunSummary) => sink.finish(summary),
    };
  }

  async stopReason(): Promise<StopReason | undefined> {
    return this.stopped;
  }

  private readonly stoppedAccounts = new Map<string, AccountStop>();

  readonly accountStops: AccountStops = {
    stopped: async (account) => this.stoppedAccounts.get(account),
    stop: async (account, reason) => {
      if (this.stoppedAccounts.has(account)) return false;
      this.stoppedAccounts.set(account, reason);
      return true;
    },
  };

  async stop(reason: StopReason): Promise<void> {
    this.stopped ??= reason;
  }

  async claimExternalIds(kind: string, records: readonly MappedRecord[]): Promise<(FirstSeen | undefined)[]> {
    return records.map((record) => this.seen.claimRun(kind, record));
  }

  async wouldSend(records: readonly MappedRecord[]): Promise<void> {
    this.#wouldSend += records.length;
    await this.onWouldSend(records);
    this.onProgress({ records: records.length, bytes: 0 });
  }

  /**
   * Where the run is kept, as its end reads it (the RunPort's keeping): tallied on the way in (one
   * process, no replay), so nothing is read back.
   */
  readonly kept: KeptRun = {
    run: this,
    storedSummary: async () => this.#summary,
    settled: async () => ({ tally: this.#tally, failedLines: this.#failedLines }),
    wouldSendCount: async () => this.#wouldSend,
    storeSummary: async (summary) => {
      if (this.#summary) return;
      this.#summary = summary;
      await this.report.finish(summary);
    },
    alertsOwed: async () => !this.#judged,
    alertsJudged: async () => {
      this.#judged = true;
    },
  };
}
