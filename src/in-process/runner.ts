import { createWriteStream } from 'node:fs';
import type { Logger } from 'pino';
import { syncChunkJob } from '../../jobs/sync-chunk.js';
import type { Feed, FeedOf } from '../config/feed.js';
import type { LoadedFeed } from '../config/load-feed.js';
import { type Lease, tenantKey, type WaitingGate } from '../gate/gate.js';
import type { RecordKind } from '../kinds/registry.js';
import { withLogContext } from '../logging/log-context.js';
import { FileReportSink, type ReportFiles } from '../report-files/file-sink.js';
import { closeStream, write } from '../report-files/stream-write.js';
import { listArrived } from '../sources/locations/arrival.js';
import { nameOf } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import { openLocation } from '../sources/locations/open-location.js';
import { arrivalOf } from '../sources/locations/source-keys.js';
import type { RecordStream } from '../sources/open-records.js';
import type { MapOutcome } from '../sources/record.js';
import type { RecordOf } from '../sources/record-of.js';
import type { RunAlerts } from '../sync/alerts.js';
import { failedAll } from '../sync/build-outcome.js';
import type { Chunk } from '../sync/chunk.js';
import { processCreateClaims } from '../sync/create-claims.js';
import { executeChunk } from '../sync/execute-chunk.js';
import { type IdentityStore, storeBeforeFirstWrite } from '../sync/identity/check.js';
import { type SyncMeter, stopwatch } from '../sync/meter.js';
import type { ChunkContext, SyncClient } from '../sync/ports.js';
import type { RunSummary } from '../sync/report/summary.js';
import { finishRun } from '../sync/run/finish-run.js';
import { openRun, runAccount } from '../sync/run/open-run.js';
import { exportOpener, finishedFile, readFiles } from '../sync/run/read-run.js';
import { newRunId } from '../sync/run-id.js';
import { stopFor } from '../sync/stop.js';
import type { Clock } from '../time/clock.js';
import { MemoryRun, type ProgressListener } from './memory-run.js';
import { withReadProgress } from './read-progress.js';

export interface RunnerDeps {
  client: SyncClient;
  clock: Clock;
  logger: Logger;
  gate: WaitingGate;
  reportDir: string;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Judges the finished run and notifies when its feed's health changes. */
  alerts?: RunAlerts;
  /** Hears stored outcomes and chunk durations (metrics). */
  meter?: SyncMeter;
  /** Where the feeds' identity settings are kept, and `--accept-new-identity`; without it, no check. */
  identity?: { store: IdentityStore; accept: boolean };
  /** Where the run writes (the service's base URL or "embedded sandbox"), named in its summary. */
  target?: string;
  /**
   * Aborted (reason: the signal's name) when the user interrupts: reading stops, no new chunk is
   * sent, read-but-unsent records end failed/INTERRUPTED, in-flight chunks settle (until `signal`
   * aborts them at the end of the grace period). The summary says `interrupted`.
   */
  interrupt?: AbortSignal;
  /** Where a remote location's secrets are read (the variables the feed names); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Only these lines of each file (by the name reports give it), the rest not read into the run:
   * `reconcile --repair` syncs the records it found missing or different. Absent: every line.
   */
  onlyLines?: ReadonlyMap<string, ReadonlySet<number>>;
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
  const location = openLocation(loaded.feed.source.location, deps.env ?? process.env, {
    onProblem: (p) =>
      deps.logger.warn(
        { feed: loaded.feed.name, glob: loaded.sourceGlob, path: p.path },
        `export file left out: ${p.problem}`,
      ),
  });
  try {
    return await runFeedAt(location, loaded, dryRun, deps);
  } finally {
    await location.close();
  }
}

async function runFeedAt(
  location: Location,
  loaded: LoadedFeed,
  dryRun: boolean,
  deps: RunnerDeps,
): Promise<FeedRunResult> {
  const startedAt = deps.clock.now();
  // The account first: the gate, the chunks, the summary and the logs all name its id.
  const account = await runAccount(loaded.feed, deps.client, deps.signal);
  const { feed } = account;
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
  const { interrupt } = deps;
  const interrupted = () => interrupt?.aborted === true;
  const notSent = async (chunk: Chunk) => {
    const outcomes = failedAll(chunk.records, {
      code: 'INTERRUPTED',
      message: `not sent: the run was interrupted (${String(interrupt?.reason)}); the next run sends it`,
    });
    await run.report.record(outcomes);
    return outcomes;
  };
  // Waiting for a slot ends on an interrupt too: those records are then not sent.
  const slotSignal = AbortSignal.any([interrupt, deps.signal].filter((s) => s !== undefined));
  const dispatch = async (chunk: Chunk): Promise<void> => {
    if (interrupted()) {
      await notSent(chunk);
      return;
    }
    let lease: Lease;
    try {
      lease = await deps.gate.acquire(tenantKey(chunk.accountId), feed.concurrency, slotSignal);
    } catch (error) {
      if (!interrupted()) throw error;
      await notSent(chunk);
      return;
    }
    const ctx = chunkCtx(chunk);
    const task = executeChunk(chunk, {
      run,
      logger: ctx.logger,
      // The shared client's lines (retries, alerts) carry the chunk too (log-context.ts).
      logContext: { chunk: chunk.seq },
      elapsed: stopwatch(),
      meter,
      sync: () => syncChunkJob.run(chunk, { ...ctx, run }),
      // Past the grace period of an interrupt its requests were aborted: not sent (or not
      // confirmed), which the next run's existence check settles.
      takeOver: async () => (interrupted() && deps.signal?.aborted ? notSent(chunk) : undefined),
    })
      .then(() => undefined)
      .finally(() => lease.release());
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };
  const prepareCtx = (f: Feed): ChunkContext => ({
    client: deps.client,
    clock: deps.clock,
    logger,
    accountId: f.accountId,
    signal: deps.signal,
    // The target bank account is created once even when two runs of the account start together.
    claims: processCreateClaims,
  });

  const arrival = arrivalOf(feed.source);
  // A `stable` feed lists twice, stableAfterSeconds apart, before the first record is read. A
  // location that refuses (a host key, a login, a secret not set) stops this feed's run, reported
  // like any stop; the other feeds of the command go on.
  const listing = await listArrived(location, loaded.sourceGlob, arrival, { clock: deps.clock }).catch(
    async (error: unknown) => {
      const stop = stopFor(error);
      if (!stop) throw error;
      logger.error({ code: stop.code }, `run stopped: ${stop.message}`);
      await run.stop({ code: stop.code, message: stop.message, exitCode: stop.exitCode });
      return { ready: [], waiting: [] };
    },
  );
  const paths = listing.ready.map((f) => f.path);
  const waiting = listing.waiting.map((w) => ({ path: nameOf(location, w.path), reason: w.reason }));
  for (const w of waiting) logger.info({ file: w.path }, `export file waits: ${w.reason}`);
  const { onlyLines: only, identity } = deps;
  const openAt = exportOpener(location, only && ((path) => only.get(nameOf(location, path)) ?? new Set()));
  const { prepare, predict, noFile } = await openRun(
    {
      account,
      dryRun,
      files: paths,
      open: openAt,
      listed: { location, glob: loaded.sourceGlob, listing },
      ...(identity ? { identity } : {}),
    },
    {
      handle: run,
      expectWrites: async (settings) => {
        const store = identity?.store;
        if (store) run.beforeWrite = storeBeforeFirstWrite(() => store.save(feed.name, settings));
      },
    },
    { logger, context: prepareCtx, chunkContext: chunkCtx },
  );
  // Per file read: where reading stopped on an interrupt (the summary names the line).
  const readings = new Map<string, { lastLine: number; stopped: boolean }>();
  const reads = await withLogContext(bindings, () =>
    readFiles(
      paths,
      { runId, feed, dryRun },
      {
        run,
        dispatch,
        skip: interrupted,
        opener: (path) => {
          const reading = { lastLine: 0, stopped: false };
          readings.set(path, reading);
          return withReadProgress(
            interrupt ? untilInterrupted(interrupt, reading, openAt) : openAt,
            deps.onProgress,
          );
        },
      },
      { logger, ...(deps.signal ? { signal: deps.signal } : {}), prepare, predict },
    ),
  );
  const files = reads.map((r) => finishedFile(r.path, r.file, r.read));
  const readAt = new Map(reads.map((r) => [r.path, r]));
  const unread = paths.flatMap((path) => {
    const read = readAt.get(path);
    if (!read) return [{ path: nameOf(location, path), readUpToLine: 0 }];
    const reading = readings.get(path);
    return reading?.stopped ? [{ path: read.file, readUpToLine: reading.lastLine }] : [];
  });
  await Promise.all(inFlight);
  if (wouldSendFile) await closeStream(wouldSendFile);

  const summary = await finishRun(
    {
      runId,
      feed,
      dryRun,
      startedAt,
      files,
      ...(interrupted() ? { interrupted: { signal: String(interrupt?.reason), unread } } : {}),
      waiting,
      ...(noFile ? { noFile } : {}),
    },
    run,
    {
      logger,
      now: () => deps.clock.now(),
      context: prepareCtx(feed),
      ...(deps.alerts ? { alerts: sideChannel(deps.alerts, logger) } : {}),
      location,
      ...(deps.target ? { target: deps.target } : {}),
    },
  );
  return { summary, files: sink.files };
}

/**
 * Notices are a side channel: a state file that cannot be written must not fail the sync (the
 * fleet's finishing job fails instead, and its retry judges the run again).
 */
function sideChannel(alerts: RunAlerts, logger: Logger): RunAlerts {
  return {
    runFinished: (summary, run) =>
      alerts
        .runFinished(summary, run)
        .catch((error: unknown) =>
          logger.error({ err: error }, "could not judge the feed's health; no alert sent"),
        ),
    close: (waitMs) => alerts.close(waitMs),
  };
}

/**
 * Opens records as usual but ends the file at the first batch after `interrupt`: records not yet
 * handed on are never read (the summary names the line where reading stopped). A file left
 * unfinished has no sha256 of its whole content: its summary entry says so.
 */
function untilInterrupted(
  interrupt: AbortSignal,
  reading: { lastLine: number; stopped: boolean },
  open: <K extends RecordKind>(feed: FeedOf<K>, file: string) => RecordStream<RecordOf<K>>,
) {
  return <K extends RecordKind>(feed: FeedOf<K>, file: string): RecordStream<RecordOf<K>> => {
    const inner = open(feed, file);
    let partial: (hash: string) => void = () => {};
    const cut = new Promise<string>((resolve) => {
      partial = resolve;
    });
    async function* batches(): AsyncGenerator<readonly MapOutcome<RecordOf<K>>[]> {
      for await (const batch of inner.batches) {
        if (interrupt.aborted) {
          reading.stopped = true;
          partial('(not read to the end: interrupted)');
          return;
        }
        for (const outcome of batch) reading.lastLine = Math.max(reading.lastLine, outcome.record.line);
        yield batch;
      }
    }
    // The whole file's hash never comes when reading stops early; it must not reject unheard.
    inner.sha256.catch(() => undefined);
    return { ...inner, batches: batches(), sha256: Promise.race([inner.sha256, cut]) };
  };
}
