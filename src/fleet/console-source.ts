import { checkedDetail } from '../console/checked-detail.js';
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
import { compiled } from '../contract/compiled.js';
import { FeedFreshness, type FileRegistry } from './file-registry.js';
import { judgeFreshness } from './freshness.js';
import type { RedisReconcileStore } from './reconcile-store.js';
import type { RedisRunStore, RunListing, RunMeta } from './run-store.js';

export interface FleetConsoleDeps {
  store: RedisRunStore;
  registry: FileRegistry;
  reconciles: RedisReconcileStore;
  /** Each feed's open alerts in words (the fleet's feed health), when the caller wires them in. */
  alerts?: () => Promise<Map<string, string[]>>;
  now: () => number;
}

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

/**
 * The edge between Redis and the pages: what the run store holds was written by this or another
 * version of erp-bridge (or by hand), so it is parsed with the console's zod schemas like a
 * summary.json is; what fails is listed as damaged, never a crash, and keys the console does not
 * show are dropped.
 */
function runDetail(listing: RunListing): RunDetail {
  const value = listing.summary ?? runningRun(listing.meta);
  return checkedDetail(ConsoleRun, value, String(listing.meta.runId), 'the stored run is not a run summary');
}

const NOT_A_RECONCILE = 'the stored reconcile is not a reconcile summary';

const rowKey = (accountId: number, feed: string) => `${accountId}\u0000${feed}`;

/** The last reconcile of each tenant x feed, checked (compiled: up to one per tenant); what is not one, damaged. */
function lastReconciles(stored: readonly unknown[], damaged: DamagedFolder[]): ReconcileRow[] {
  const rows: ReconcileRow[] = [];
  for (const value of stored) {
    const id = storedId(value, 'reconcileId') ?? 'a reconcile';
    const detail = checkedDetail(compiled(ConsoleReconcile), value, id, NOT_A_RECONCILE);
    if ('damaged' in detail) damaged.push(detail.damaged);
    else rows.push({ accountId: detail.summary.accountId, feed: detail.summary.feed, last: detail.summary });
  }
  return rows;
}

/** The id a stored value names, when it names one (for the damaged list). */
function storedId(value: unknown, key: string): string | undefined {
  const id =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The console's read port over the fleet's Redis: the run store (runs, their outcomes), the file
 * registry's freshness entries (judged as the scheduler judges them) and the reconcile store.
 * Read on each request, nothing cached: the fleet changes while the page is open.
 */
export class FleetConsoleSource implements ConsoleSource {
  constructor(private readonly deps: FleetConsoleDeps) {}

  /**
   * One row per tenant x feed: its last finished run (the run store's latest-of-each hash: one read
   * for 1,000 tenants), and watched feeds with no run in retention (a feed whose exports stopped
   * arriving is exactly what the page is for). Freshness and open alerts are the feed's.
   */
  async overview(): Promise<Overview> {
    const { store, registry, reconciles, alerts } = this.deps;
    const [latest, running, freshness, latestReconciles, open] = await Promise.all([
      store.latest(),
      store.running(),
      registry.freshness(),
      reconciles.latest(),
      alerts ? alerts() : new Map<string, string[]>(),
    ]);
    const rows = new Map<string, FeedRow>();
    const damaged: DamagedFolder[] = [];
    for (const value of latest) {
      // Compiled: 3,000 rows of a 1,000-tenant fleet on every page view.
      const id = storedId(value, 'runId') ?? 'a run';
      const detail = checkedDetail(compiled(ConsoleRun), value, id, 'the stored run is not a run summary');
      if ('damaged' in detail) {
        damaged.push(detail.damaged);
        continue;
      }
      const run = detail.summary;
      rows.set(rowKey(run.accountId, run.feed), {
        accountId: run.accountId,
        feed: run.feed,
        kind: run.kind,
        last: run,
      });
    }
    // Runs under way (oldest first): each tenant x feed's count, oldest start and newest run; a
    // feed's first run makes its row.
    for (const run of running) {
      const key = rowKey(run.accountId, run.feed);
      const row = rows.get(key) ?? { accountId: run.accountId, feed: run.feed, kind: '' };
      rows.set(key, row);
      row.running = {
        runs: (row.running?.runs ?? 0) + 1,
        since: row.running?.since ?? new Date(run.startedAt).toISOString(),
        runId: run.runId,
      };
    }
    const notes = this.freshnessNotes(freshness, damaged);
    const feedsWithRows = new Set([...rows.values()].map((row) => row.feed));
    for (const [feed, { accountId }] of notes)
      if (!feedsWithRows.has(feed)) rows.set(rowKey(accountId, feed), { accountId, feed, kind: '' });
    // By feed name, as the fleet keys feeds (a run's account may differ from the configured one
    // the freshness entry holds until its import resolved the feed's account).
    for (const row of rows.values()) {
      const note = notes.get(row.feed);
      if (note) row.freshness = note.note;
      row.alerts = open.get(row.feed) ?? [];
    }
    return {
      rows: [...rows.values()],
      reconciles: lastReconciles(latestReconciles, damaged),
      damaged,
      knows: { runs: false, freshness: true, alerts: alerts !== undefined },
    };
  }

  /** The scheduler's freshness entries (JSON its Lua script wrote), checked, judged now. */
  private freshnessNotes(
    stored: readonly unknown[],
    damaged: DamagedFolder[],
  ): Map<string, { accountId: number; note: FeedFreshnessNote }> {
    const notes = new Map<string, { accountId: number; note: FeedFreshnessNote }>();
    const now = this.deps.now();
    for (const value of stored) {
      const entry = FeedFreshness.safeParse(value);
      if (!entry.success) {
        damaged.push({
          id: storedId(value, 'feed') ?? 'a freshness entry',
          problem: `the stored freshness entry is not one: ${firstIssue(entry.error)}`,
        });
        continue;
      }
      const verdict = judgeFreshness(entry.data, now);
      notes.set(entry.data.feed, {
        accountId: entry.data.accountId,
        note: { stale: verdict.stale, brief: verdict.brief, message: verdict.message },
      });
    }
    return notes;
  }

  async run(runId: string): Promise<RunDetail | undefined> {
    const { store } = this.deps;
    const [meta, summary] = await Promise.all([store.meta(runId), store.summary(runId)]);
    if (!meta) return undefined;
    return runDetail({ meta, ...(summary ? { summary } : {}) });
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
      const detail = runDetail(listing);
      if ('summary' in detail) runs.push(detail.summary);
    }
    return runs.reverse();
  }

  async reconcile(reconcileId: string): Promise<ReconcileDetail | undefined> {
    const summary = await this.deps.reconciles.summary(reconcileId);
    return summary ? checkedDetail(ConsoleReconcile, summary, reconcileId, NOT_A_RECONCILE) : undefined;
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
