import { createWriteStream } from 'node:fs';
import type { Logger } from 'pino';
import { importFileJob } from '../../jobs/import-file.js';
import { syncChunkJob } from '../../jobs/sync-chunk.js';
import type { Clock } from '../client/index.js';
import type { Feed } from '../config/feed.js';
import type { LoadedFeed } from '../config/load-feed.js';
import { type TenantGate, tenantKey } from '../gate/gate.js';
import { withLogContext } from '../logging/log-context.js';
import type { RunAlerts } from '../ops/alerts/feed-alerts.js';
import { FileReportSink, type ReportFiles, write } from '../reporting/file-sink.js';
import { expandGlob } from '../sources/glob.js';
import { openRecords } from '../sources/open-records.js';
import { processCreateClaims } from '../sync/create-claims.js';
import { checkIdentity, countDerivedIds, type IdentityStore } from '../sync/identity/check.js';
import { type SyncMeter, stopwatch } from '../sync/meter.js';
import type { Chunk } from '../sync/pipeline.js';
import type { ChunkContext, SyncClient } from '../sync/ports.js';
import { prepareSettings } from '../sync/prepare-settings.js';
import { buildSummary, type ReportedFile, type RunSummary } from '../sync/report/summary.js';
import { newRunId } from '../sync/run-id.js';
import { failedAll } from '../sync/settle.js';
import { predictChunk } from '../sync/strategies/predict.js';
import { MemoryRun, type ProgressListener } from './memory-run.js';

export interface RunnerDeps {
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  gate: TenantGate;
  reportDir: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Judges the finished run and notifies when its feed's health changes. */
  alerts?: RunAlerts;
  /** Hears stored outcomes and chunk durations (metrics). */
  meter?: SyncMeter;
  /** Where the feeds' identity settings are kept, and `--accept-new-identity`; without it, no check. */
  identity?: { store: IdentityStore; accept: boolean };
}

export interface FeedRunResult {
  summary: RunSummary;
  files: ReportFiles;
}

/**
 * Runs one feed to completion in this process (no Redis): every export file matching its glob,
 * through the same jobs the fleet executes. Chunks of one tenant run at most `feed.concurrency` at
 * a time (the gate), and the import waits for a slot before reading further, so memory stays flat.
 */
export async function runFeed(loaded: LoadedFeed, dryRun: boolean, deps: RunnerDeps): Promise<FeedRunResult> {
  const { feed } = loaded;
  const startedAt = deps.clock.now();
  const runId = newRunId(feed.name, startedAt);
  const bindings = { runId, feed: feed.name, tenant: feed.accountId };
  const logger = deps.logger.child(bindings);
  const sink = await FileReportSink.create(deps.reportDir, runId);
  const { meter } = deps;
  const wouldSendFile = dryRun ? createWriteStream(`${sink.files.dir}/would-send.ndjson`) : undefined;
  const run = new MemoryRun(
    runId,
    sink,
    async (records) => {
      if (!wouldSendFile) return;
      const lines = records.map(
        (r) =>
          `${JSON.stringify({ file: r.file, line: r.line, externalId: r.externalId, payload: r.payload })}\n`,
      );
      await write(wouldSendFile, lines.join(''));
    },
    deps.onProgress,
    meter && ((outcomes) => meter.recorded(feed.kind, feed.accountId, outcomes)),
  );

  const chunkCtx = (chunk: Chunk): ChunkContext => ({
    client: deps.client,
    clock: deps.clock,
    logger: logger.child({ chunk: chunk.seq }),
    accountId: chunk.accountId,
    signal: deps.signal,
    // Creates of one (account, externalId) are serialised across the runs of this process.
    claims: processCreateClaims,
  });
  const inFlight = new Set<Promise<void>>();
  const dispatch = async (chunk: Chunk) => {
    const lease = await deps.gate.acquire(tenantKey(chunk.accountId), feed.concurrency, deps.signal);
    const ctx = chunkCtx(chunk);
    const elapsed = stopwatch();
    // The shared client's lines (retries, alerts) carry the chunk too (log-context.ts).
    const task = withLogContext({ chunk: chunk.seq }, () => syncChunkJob.run(chunk, { ...ctx, run }))
      .then(() => undefined)
      .catch(async (error: unknown) => {
        logger.error({ err: error, chunk: chunk.seq }, 'chunk failed unexpectedly');
        const message = error instanceof Error ? error.message : String(error);
        await run.report.record(failedAll(chunk.records, { code: 'UNEXPECTED_ERROR', message }));
      })
      .then(() => meter?.chunkSynced(chunk.kind, chunk.accountId, elapsed()))
      .finally(() => lease.release());
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };
  const prepare = (f: Feed) =>
    prepareSettings(f, dryRun, {
      client: deps.client,
      clock: deps.clock,
      logger,
      accountId: f.accountId,
      signal: deps.signal,
    });

  // Dry runs read what the service holds, so the prediction skips what a real run would skip.
  const predict = (chunk: Chunk) => predictChunk(chunk.kind, chunk.records, chunk.settings, chunkCtx(chunk));

  const files: ReportedFile[] = [];
  const paths = await expandGlob(loaded.sourceGlob, (p) =>
    logger.warn({ glob: loaded.sourceGlob, path: p.path }, `export file left out: ${p.problem}`),
  );
  if (paths.length === 0)
    logger.warn({ glob: loaded.sourceGlob }, 'no export file matches the feed source path');
  // Before anything is sent (even the target bank account): a change of the identity settings
  // would create this run's records again under new IDs.
  const identityStop =
    deps.identity &&
    (await checkIdentity(feed, deps.identity.store, {
      accept: deps.identity.accept,
      dryRun,
      countDerived: () => countDerivedIds(feed, paths),
      logger,
    }));
  if (identityStop) {
    logger.error({ code: identityStop.code }, `run stopped: ${identityStop.message}`);
    await run.stop(identityStop);
  }
  for (const path of paths) {
    const result = await withLogContext(bindings, () =>
      importFileJob.run(
        { runId, feed, file: path, dryRun },
        { logger, signal: deps.signal, run, open: openRecords, dispatch, prepare, predict },
      ),
    );
    files.push({
      path: result.file,
      sha256: result.sha256,
      records: result.records,
      ...(result.encoding ? { encoding: result.encoding } : {}),
    });
  }
  await Promise.all(inFlight);
  await new Promise<void>((resolve) => (wouldSendFile ? wouldSendFile.end(resolve) : resolve()));

  const stop = await run.stopReason();
  const finishedAt = deps.clock.now();
  const summary = buildSummary({
    runId,
    feed,
    dryRun,
    startedAt,
    finishedAt,
    files,
    tally: run.tally,
    ...(stop ? { stop } : {}),
    wouldSend: run.wouldSendCount,
  });

  await run.report.finish(summary);
  logger.info(
    { state: summary.state, counts: summary.counts, durationMs: summary.durationMs },
    'run finished',
  );
  // Notices are a side channel: a state file that cannot be written must not fail the sync.
  await deps.alerts
    ?.runFinished(summary)
    .catch((error: unknown) =>
      logger.error({ err: error }, "could not judge the feed's health; no alert sent"),
    );
  return { summary, files: sink.files };
}
