import { expect } from 'vitest';
import type { FaultConfigInput } from '../../src/sandbox/faults-config.js';
import type { GeneratedExport } from './generated-exports.js';
import { exitCodeOfRun, expectAccounted, expectNoDuplicates, linesWith } from './run-checks.js';
import { type StrictBulkFront, strictBulkFront } from './strict-bulk-front.js';
import {
  type Front,
  type HarnessOptions,
  type HarnessRun,
  type SyncHarness,
  syncHarness,
} from './sync-harness.js';

/** What a feed of generated records writes to, and what the service held there before. */
export interface Target {
  kind: 'transactions' | 'invoices';
  accountId: number;
  /** Records of the kind the sandbox's seed already holds in the account (never touched by a feed). */
  seeded: number;
}

/**
 * The end-to-end checks every fault test of a generated export repeats: a harness per test, the
 * sandbox holding each externalId once, and the two shapes of a run under faults — everything
 * synced anyway, or the first chunk failed — each followed by a fault-free rerun.
 */
export class FaultScenarios {
  #h: SyncHarness | undefined;

  constructor(
    private readonly target: Target,
    private readonly source: () => GeneratedExport,
  ) {}

  /** The harness of the running test. */
  get h(): SyncHarness {
    if (!this.#h) throw new Error('start() the harness first');
    return this.#h;
  }

  async start<F extends Front>(faults: FaultConfigInput = {}, options: HarnessOptions<F> = {}) {
    this.#h = await syncHarness(faults, options);
    return this.#h;
  }

  /** For afterEach. */
  async close(): Promise<void> {
    await this.#h?.close();
    this.#h = undefined;
  }

  /** The records the generated export sends (valid, not excluded). */
  get sent(): number {
    return this.source().externalIds.length;
  }

  /** What the service holds of the kind, seed aside: each externalId once, `count` of them. */
  async expectStoredOnce(count = this.sent): Promise<void> {
    const stored = await this.h.stored(this.target.accountId, this.target.kind);
    expectNoDuplicates(stored);
    expect(stored).toHaveLength(count + this.target.seeded);
  }

  /** A first run under `faults` that syncs every record once, then a fault-free rerun that creates nothing. */
  async allCreatedOnceThenNothing(faults: FaultConfigInput): Promise<HarnessRun> {
    const source = this.source();
    const excluded = source.excludedLines.length;
    const rejected = source.invalidLines.length;
    await this.start(faults);
    const first = await this.h.run(source.feedFile);
    expectAccounted(first, source);
    expect(first.summary.counts).toMatchObject({
      created: this.sent,
      skipped: excluded,
      rejected,
      failed: 0,
    });
    expect(linesWith(first, 'rejected')).toEqual(source.invalidLines);
    expect(linesWith(first, 'skipped')).toEqual(source.excludedLines);
    await this.expectStoredOnce();

    this.h.setFaults();
    const second = await this.h.run(source.feedFile);
    expectAccounted(second, source);
    expect(second.summary.counts).toMatchObject({
      created: 0,
      updated: 0,
      skipped: this.sent + excluded,
      rejected,
      failed: 0,
    });
    await this.expectStoredOnce();
    return first;
  }

  /**
   * A first run under `faults` in which the first chunk (its first 1000 records) fails with `code`
   * while the run goes on (exit code 1, no stop), then a fault-free rerun that creates exactly those.
   */
  async firstChunkFailsThenRerunCreatesIt(faults: FaultConfigInput, code: string): Promise<void> {
    const source = this.source();
    const firstChunk = source.sentLines.slice(0, 1000);
    await this.start(faults);
    const first = await this.h.run(source.feedFile);
    expectAccounted(first, source);
    expect(linesWith(first, 'failed')).toEqual(firstChunk);
    expect(new Set(first.outcomes.filter((o) => o.outcome === 'failed').map((o) => o.code))).toEqual(
      new Set([code]),
    );
    expect(first.summary.counts).toMatchObject({ created: this.sent - 1000, failed: 1000 });
    expect(first.summary.state).toBe('completed_with_errors');
    expect(first.summary.stopReason).toBeUndefined();
    expect(exitCodeOfRun(first)).toBe(1);
    await this.expectStoredOnce(this.sent - 1000);

    this.h.setFaults();
    const second = await this.h.run(source.feedFile);
    expectAccounted(second, source);
    expect(linesWith(second, 'created')).toEqual(firstChunk);
    expect(second.summary.counts).toMatchObject({
      created: 1000,
      skipped: this.sent - 1000 + source.excludedLines.length,
      failed: 0,
    });
    await this.expectStoredOnce();
  }

  /**
   * A run of `parallel` (a second export, two chunks at a time) under random faults, whatever
   * becomes of each record: accounted, nothing stored twice, and a clean rerun completes the feed.
   */
  async chaos(parallel: GeneratedExport, faults: FaultConfigInput): Promise<void> {
    await this.start(faults);
    const first = await this.h.run(parallel.feedFile);
    expectAccounted(first, parallel);
    expect(this.h.injector.injected()).not.toEqual({});
    const mine = async () =>
      (await this.h.stored(this.target.accountId, this.target.kind)).filter((s) =>
        parallel.externalIds.includes(s.externalId ?? ''),
      );
    const before = await mine();
    expectNoDuplicates(before);
    // A chunk that failed may still have been written (its answers were lost): no more than that.
    expect(before.length).toBeGreaterThanOrEqual(first.summary.counts.created);
    expect(before.length).toBeLessThanOrEqual(first.summary.counts.created + first.summary.counts.failed);

    this.h.setFaults();
    const second = await this.h.run(parallel.feedFile);
    expectAccounted(second, parallel);
    expect(second.summary.counts.failed).toBe(0);
    const outcomeAt = new Map(second.outcomes.map((o) => [o.line, o.outcome]));
    for (const line of linesWith(first, 'created'))
      expect(outcomeAt.get(line), `line ${line}`).toBe('skipped');
    for (const line of linesWith(first, 'failed'))
      expect(['created', 'skipped']).toContain(outcomeAt.get(line));
    expect(second.summary.counts.created).toBe(parallel.externalIds.length - before.length);
    const after = await mine();
    expectNoDuplicates(after);
    expect(after).toHaveLength(parallel.externalIds.length);
  }

  /**
   * Runs the export behind a front that refuses a whole bulk request (400) while it carries one of
   * the records at `refusedAt` (positions among those sent), with or without causes naming them:
   * only those are rejected, every other record is created once, and a rerun creates nothing.
   * With causes there is one refusal per chunk holding refused records; without, bisection narrows
   * each refused record down to a request of its own, in about 2 log2(1000) requests per record.
   */
  async wholeRequestRefusals(refusedAt: readonly number[], causes: boolean): Promise<void> {
    const file = this.source();
    const refusedIds = new Set(refusedAt.flatMap((i) => file.externalIds[i] ?? []));
    const refusedLines = refusedAt.flatMap((i) => file.sentLines[i] ?? []);
    const refuses = (item: Record<string, unknown>) => refusedIds.has(String(item.externalId));
    const h = await this.start<StrictBulkFront>({}, { front: strictBulkFront(refuses, causes) });
    const valid = this.sent - refusedIds.size;

    const first = await h.run(file.feedFile);
    expectAccounted(first, file);
    expect(linesWith(first, 'rejected')).toEqual(
      [...file.invalidLines, ...refusedLines].sort((a, b) => a - b),
    );
    const refusals = first.outcomes.filter((o) => refusedIds.has(o.externalId ?? ''));
    expect(new Set(refusals.map((o) => o.code))).toEqual(new Set(['INVALID_REQUEST']));
    if (causes) expect(refusals[0]?.message).toContain('refused by the strict front');
    expect(first.summary.counts).toMatchObject({ created: valid, failed: 0 });
    await this.expectStoredOnce(valid);

    const { refusedSizes } = h.front as StrictBulkFront;
    const chunks = new Set(refusedAt.filter((i) => i < this.sent).map((i) => Math.floor(i / 1000)));
    if (causes) expect(refusedSizes).toHaveLength(chunks.size);
    else {
      expect(refusedSizes.filter((size) => size === 1)).toHaveLength(refusedIds.size);
      expect(refusedSizes.length).toBeLessThanOrEqual(refusedIds.size * 2 * 10);
    }

    const second = await h.run(file.feedFile);
    expectAccounted(second, file);
    expect(second.summary.counts).toMatchObject({
      created: 0,
      skipped: valid + file.excludedLines.length,
      failed: 0,
    });
    await this.expectStoredOnce(valid);
  }
}
