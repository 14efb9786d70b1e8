import * as z from 'zod';
import type {
  ConsoleSource,
  DamagedFolder,
  FeedFreshnessNote,
  FeedRow,
  Overview,
  ReconcileDetail,
  ReconcileRow,
  RecordPage,
  RecordQuery,
  RunDetail,
} from '../console/console-source.js';
import { differenceMatches, pageOf, problemMatches, scanValues } from '../console/record-search.js';
import {
  ConsoleOutcome,
  ConsoleReconcile,
  ConsoleReconcileLine,
  ConsoleRun,
  firstIssue,
} from '../console/summary-schemas.js';
import type { FileRegistry } from './file-registry.js';
import { judgeFreshness } from './freshness.js';
import type { RedisReconcileStore } from './reconcile-store.js';
import type { RedisRunStore, RunListing, RunMeta } from './run-store.js';

/** Runs the overview reads, newest first: one pipeline (run-store.ts list), a bounded page. */
export const OVERVIEW_RUNS = 5_000;

export interface FleetConsoleDeps {
  store: RedisRunStore;
  registry: FileRegistry;
  reconciles: RedisReconcileStore;
  now: () => number;
  /** Runs the overview reads at most (the newest). Default OVERVIEW_RUNS. */
  overviewRuns?: number;
}

const Ms = z.number().int().nonnegative();
const FreshnessEntry = z.object({
  feed: z.string(),
  accountId: z.int(),
  since: Ms,
  lastNewAt: Ms.optional(),
  expectEveryMs: Ms,
});

const ZERO = { records: 0, amount: '0' };

/**
 * A run that has no summary yet (its import or chunks still going) as the console shows it: its
 * meta, nothing counted. The meta is checked like a summary, through the same schema.
 */
function runningRun(meta: RunMeta): unknown {
  return {
    runId: meta.runId,
    feed: meta.feed,
    kind: meta.kind,
    accountId: meta.accountId,
    dryRun: meta.dryRun,
    state: 'running',
    startedAt: meta.startedAt,
    files: [{ path: meta.file, records: 0 }],
    counts: { created: 0, updated: 0, skipped: 0, rejected: 0, failed: 0 },
    controlTotals: {
      created: ZERO,
      updated: ZERO,
      skipped: ZERO,
      rejected: ZERO,
      failed: ZERO,
      all: ZERO,
    },
  };
}

type Checked = { run: ConsoleRun } | { damaged: DamagedFolder };

/**
 * The edge between Redis and the pages: what the run store holds was written by this or another
 * version of erp-bridge (or by hand), so it is parsed with the console's zod schemas like a
 * summary.json is; what fails is listed as damaged, never a crash, and keys the console does not
 * show are dropped.
 */
function checked(listing: RunListing): Checked {
  const parsed = ConsoleRun.safeParse(listing.summary ?? runningRun(listing.meta));
  if (parsed.success) return { run: parsed.data };
  const id = String(listing.meta.runId);
  return { damaged: { id, problem: `the stored run is not a run summary: ${firstIssue(parsed.error)}` } };
}

/** The newest reconcile of each tenant x feed (`stored` is newest first); what is not one, damaged. */
function lastReconciles(stored: readonly unknown[], damaged: DamagedFolder[]): ReconcileRow[] {
  const rows = new Map<string, ReconcileRow>();
  for (const value of stored) {
    const parsed = ConsoleReconcile.safeParse(value);
    if (!parsed.success) {
      const id = (value as { reconcileId?: unknown } | null)?.reconcileId;
      damaged.push({
        id: typeof id === 'string' ? id : 'a reconcile',
        problem: `the stored reconcile is not a reconcile summary: ${firstIssue(parsed.error)}`,
      });
      continue;
    }
    const last = parsed.data;
    const key = `${last.accountId}\u0000${last.feed}`;
    if (!rows.has(key)) rows.set(key, { accountId: last.accountId, feed: last.feed, last });
  }
  return [...rows.values()];
}

/**
 * The console's read port over the fleet's Redis: the run store (runs, their outcomes), the file
 * registry's freshness entries (judged as the scheduler judges them) and the reconcile store.
 * Read on each request, nothing cached: the fleet changes while the page is open.
 */
export class FleetConsoleSource implements ConsoleSource {
  constructor(private readonly deps: FleetConsoleDeps) {}

  async overview(): Promise<Overview> {
    const limit = this.deps.overviewRuns ?? OVERVIEW_RUNS;
    const [listings, freshness, reconciles] = await Promise.all([
      this.deps.store.list(limit),
      this.deps.registry.freshness(),
      this.deps.reconciles.list(limit),
    ]);
    const now = this.deps.now();
    const notes = new Map<string, FeedFreshnessNote>();
    for (const stored of freshness) {
      // Written by the scheduler's Lua script as JSON: checked before it is judged and shown.
      const entry = FreshnessEntry.safeParse(stored);
      if (!entry.success) continue;
      const verdict = judgeFreshness(entry.data, now);
      notes.set(entry.data.feed, { stale: verdict.stale, message: verdict.message });
    }
    const rows = new Map<string, FeedRow>();
    const damaged: DamagedFolder[] = [];
    // Newest first: the first run of a tenant x feed is its last one.
    for (const listing of listings) {
      const result = checked(listing);
      if ('damaged' in result) {
        damaged.push(result.damaged);
        continue;
      }
      const { run } = result;
      const key = `${run.accountId}\u0000${run.feed}`;
      const row = rows.get(key);
      if (row) row.runs++;
      else {
        // By feed name, as the fleet keys feeds (a run's account may differ from the configured one
        // the freshness entry holds until its import resolved the feed's account).
        const note = notes.get(run.feed);
        rows.set(key, {
          accountId: run.accountId,
          feed: run.feed,
          kind: run.kind,
          last: run,
          runs: 1,
          ...(note ? { freshness: note } : {}),
        });
      }
    }
    return { rows: [...rows.values()], reconciles: lastReconciles(reconciles, damaged), damaged };
  }

  async run(runId: string): Promise<RunDetail | undefined> {
    const { store } = this.deps;
    const [meta, summary] = await Promise.all([store.meta(runId), store.summary(runId)]);
    if (!meta) return undefined;
    const result = checked({ meta, ...(summary ? { summary } : {}) });
    return 'run' in result ? { summary: result.run } : result;
  }

  async problems(runId: string, query: RecordQuery): Promise<RecordPage<ConsoleOutcome>> {
    return pageOf(this.scan(runId, query.q), query);
  }

  allProblems(runId: string, search: string): AsyncIterable<ConsoleOutcome> {
    return this.scan(runId, search).records;
  }

  async history(feed: string, limit: number): Promise<ConsoleRun[]> {
    const runs: ConsoleRun[] = [];
    for (const listing of await this.deps.store.list(limit, feed)) {
      const result = checked(listing);
      if ('run' in result) runs.push(result.run);
    }
    return runs.reverse();
  }

  async reconcile(reconcileId: string): Promise<ReconcileDetail | undefined> {
    const summary = await this.deps.reconciles.summary(reconcileId);
    if (!summary) return undefined;
    const parsed = ConsoleReconcile.safeParse(summary);
    return parsed.success
      ? { summary: parsed.data }
      : {
          damaged: {
            id: reconcileId,
            problem: `the stored reconcile is not a reconcile summary: ${firstIssue(parsed.error)}`,
          },
        };
  }

  async differences(reconcileId: string, query: RecordQuery): Promise<RecordPage<ConsoleReconcileLine>> {
    const lines = this.deps.reconciles.lines(reconcileId);
    return pageOf(scanValues(lines, ConsoleReconcileLine, differenceMatches(query.q)), query);
  }

  /** The run's outcomes in line order (the spill of `erp-bridge report`), checked, problems only. */
  private scan(runId: string, search: string) {
    return scanValues(this.deps.store.outcomesInOrder(runId), ConsoleOutcome, problemMatches(search));
  }
}
