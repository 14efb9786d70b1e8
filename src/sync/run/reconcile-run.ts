import type { Logger } from 'pino';
import { ApiError } from '../../client/index.js';
import { ConfigError } from '../../config/errors.js';
import type { Feed } from '../../config/feed.js';
import type { LoadedFeed } from '../../config/load-feed.js';
import { KINDS } from '../../kinds/registry.js';
import { ACCOUNT_FIELD } from '../../sources/field-spec.js';
import { FileStopError } from '../../sources/file-stop.js';
import { nameOf } from '../../sources/locations/export-file.js';
import type { MapOutcome } from '../../sources/record.js';
import type { Clock } from '../../time/clock.js';
import type { ChunkContext, SyncClient } from '../ports.js';
import { Comparison } from '../reconcile/compare.js';
import { ReconcileRefused } from '../reconcile/held.js';
import { type ReconcileResult, reconcileRecords, VERDICTS } from '../reconcile/reconcile.js';
import {
  keepingFirstDifferences,
  type ReconcileReport,
  type ReconcileSummary,
  stateOf,
} from '../reconcile/summary.js';
import type { StopReason } from '../run-handle.js';
import { newRunId } from '../run-id.js';
import { RunStopError, stopFor } from '../stop.js';
import { databaseOpener } from './database-run.js';
import type { FeedSource } from './feed-location.js';
import { listExports, noExport } from './list-run.js';
import { runAccount } from './open-run.js';
import { exportOpener } from './read-run.js';
import type { Opener } from './run-port.js';

/** What a reconcile needs, in either runner. */
export interface ReconcileRunDeps {
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  /** The reconcile's id when its caller chose it (a fleet job's); default a new one. */
  reconcileId?: string;
  signal?: AbortSignal;
  /** Where the service is (its base URL or "embedded sandbox"), named in the summary. */
  target?: string;
}

/** A finished reconcile: its summary, its report as the runner keeps it, the lines `--repair` syncs. */
export interface ReconcileOutcome<R extends ReconcileReport> {
  summary: ReconcileSummary;
  report: R;
  /** Lines of records missing or different, per file as reports name it: what `--repair` syncs. */
  repair: Map<string, Set<number>>;
}

/**
 * Why a feed cannot be reconciled, before anything is read (exit 2); undefined when it can. A kind
 * without a reconcile scope (plans, accounts, categories) and feeds whose records name their own
 * account or bank account are not supported yet (docs/reconcile.md).
 */
export function notReconcilable(feed: Feed): string | undefined {
  if (KINDS[feed.kind].reconcile === undefined)
    return `feed ${feed.name}: reconcile does not support kind ${feed.kind} yet (transactions, invoices, bank-accounts, users, categories)`;
  if (ACCOUNT_FIELD in feed.mapping)
    return `feed ${feed.name}: its records name their account (mapping.${ACCOUNT_FIELD}); reconcile compares one account: give the feed accountId or accountExternalId instead`;
  return undefined;
}

/** Refuses (a ConfigError naming the feed, exit 2) the first feed reconcile cannot compare. */
export function checkReconcilable(feeds: readonly LoadedFeed[]): void {
  for (const { feed } of feeds) {
    const why = notReconcilable(feed);
    if (why) throw new ConfigError(why);
  }
}

/**
 * A reconcile from start to end, the same for both runners (the shell of the run's steps:
 * runAccount, listExports, noExport, exportOpener; then the kind's held scope compared with the
 * exports): compares a feed's current exports (read and mapped as a sync reads them, every file
 * that has arrived, or every row of its database's table or query) with what the service holds of
 * the feed's scope, into the report `open` gives for the reconcile's id (a report folder in
 * process, Redis on the fleet). Read-only: nothing is written to the service (a target bank
 * account that is not there is an empty scope). The runner opens and closes the feed's source.
 */
export async function reconcileRun<R extends ReconcileReport>(
  at: FeedSource,
  loaded: LoadedFeed,
  deps: ReconcileRunDeps,
  open: (reconcileId: string) => Promise<R>,
): Promise<ReconcileOutcome<R>> {
  const startedAt = deps.clock.now();
  const account = await runAccount(loaded.feed, deps.client, deps.signal);
  const { feed } = account;
  const id = deps.reconcileId ?? newRunId(`${feed.name}-reconcile`, startedAt);
  const logger = deps.logger.child({ reconcileId: id, feed: feed.name, tenant: feed.accountId });
  const sink = await open(id);
  const firstDifferences = keepingFirstDifferences(sink);
  let stop: StopReason | undefined = account.stop;
  const exports = await reconcileExports(at, loaded, deps.clock, logger, (error) => stop ?? stopOf(error));
  stop ??= exports.stop;
  const { paths, names, records } = exports;
  async function* read(): AsyncGenerator<readonly MapOutcome[]> {
    for (const path of paths) yield* records(feed, path).batches;
  }
  const ctx: ChunkContext = {
    client: deps.client,
    clock: deps.clock,
    logger,
    accountId: feed.accountId,
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  let result: ReconcileResult | undefined;
  let scope: string | undefined;
  if (!stop) {
    try {
      const kind = KINDS[feed.kind];
      if (!kind.reconcile) throw new ReconcileRefused(notReconcilable(feed) ?? `kind ${feed.kind}`);
      const held = await kind.reconcile(feed, ctx);
      scope = held.describe;
      result = await reconcileRecords({
        scope: held,
        comparison: new Comparison(
          kind.fields,
          Object.keys(feed.mapping).filter((field) => !held.keyFields?.includes(field)),
        ),
        ...(kind.amountField ? { amountField: kind.amountField } : {}),
        read,
        sink: firstDifferences.sink,
      });
    } catch (error) {
      stop = stopOf(error);
      if (!stop) throw error;
    }
  }
  if (stop) logger.error({ code: stop.code }, `reconcile stopped: ${stop.message}`);
  const finishedAt = deps.clock.now();
  const empty = { records: 0 };
  const summary: ReconcileSummary = {
    reconcileId: id,
    feed: feed.name,
    kind: feed.kind,
    accountId: feed.accountId,
    ...(deps.target ? { target: deps.target } : {}),
    ...(scope ? { scope } : {}),
    state: stop || !result ? 'stopped' : stateOf(result),
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: new Date(finishedAt).toISOString(),
    durationMs: finishedAt - startedAt,
    files: names,
    counts: result?.counts ?? (Object.fromEntries(VERDICTS.map((v) => [v, 0])) as ReconcileSummary['counts']),
    heldWithoutExternalId: result?.heldWithoutExternalId ?? 0,
    excluded: result?.excluded ?? 0,
    controlTotals: result?.controlTotals ?? { source: empty, service: empty },
    firstDifferences: firstDifferences.first,
    ...(stop ? { stopReason: stop } : {}),
  };
  await sink.finish(summary);
  logger.info({ state: summary.state, counts: summary.counts }, 'reconcile finished');
  return { summary, report: sink, repair: result?.repair ?? new Map() };
}

/**
 * The exports a reconcile compares and how it reads them: a database's one read of every row (no
 * cursor: the comparison is of all the source holds), or the location's files that have arrived,
 * where a location that refuses, or no export at all, stops this feed's reconcile alone (as
 * sync's rule).
 */
async function reconcileExports(
  at: FeedSource,
  loaded: LoadedFeed,
  clock: Clock,
  logger: Logger,
  stopOf: (error: unknown) => StopReason | undefined,
): Promise<{ paths: string[]; names: string[]; records: Opener; stop?: StopReason }> {
  if ('database' in at) {
    const { label } = at.database;
    return { paths: [label], names: [label], records: databaseOpener(at) };
  }
  const { location } = at;
  const listing = await listExports(location, loaded.sourceGlob, loaded.feed, clock, stopOf);
  // No export is no equal comparison: the same rule as sync's (exit 2 unless source.allowNoFiles).
  const stop = listing.stop ?? (await noExport(listing.listed, loaded.feed, logger)).stop;
  const paths = listing.listed.listing.ready.map((f) => f.path);
  return {
    paths,
    names: paths.map((p) => nameOf(location, p)),
    records: exportOpener(location),
    ...(stop ? { stop } : {}),
  };
}

/** What ends a reconcile early, as a stop with its exit code; undefined for a bug. */
function stopOf(error: unknown): StopReason | undefined {
  if (error instanceof ReconcileRefused)
    return { code: 'NOT_RECONCILABLE', message: error.message, exitCode: 2 };
  if (error instanceof FileStopError) return { code: error.code, message: error.message, exitCode: 2 };
  const stop = error instanceof RunStopError ? error : stopFor(error);
  if (stop) return { code: stop.code, message: stop.message, exitCode: stop.exitCode };
  // Retried per the spec's rules already: the comparison cannot be finished, run it again.
  if (error instanceof ApiError)
    return {
      code: error.code,
      message: `the service failed while being read: ${error.message}; run it again`,
      exitCode: 1,
    };
  return undefined;
}
