import type { Logger } from 'pino';
import { ApiError } from '../client/index.js';
import type { Feed, FeedOf } from '../config/feed.js';
import type { RecordKind } from '../kinds/registry.js';
import { FileStopError } from '../sources/file-stop.js';
import type { FormatReport } from '../sources/format-report.js';
import { LocationError } from '../sources/locations/location-error.js';
import type { RecordStream } from '../sources/open-records.js';
import type { MapOutcome, MappedRecord } from '../sources/record.js';
import type { RecordOf } from '../sources/record-of.js';
import type { FileEncoding } from '../sources/text-encoding.js';
import { failedAll, outcomeOf } from './build-outcome.js';
import { type Chunk, Chunker, chunkOf } from './chunk.js';
import type { ChunkSettings } from './chunk-settings.js';
import { firstOfEachBooking } from './first-booking.js';
import type { RecordOutcome } from './outcome.js';
import type { Prediction } from './predict.js';
import type { CursorRange } from './run/cursor.js';
import type { RunHandle, StopReason } from './run-handle.js';
import { RunStopError, stopFor, stoppedOutcome } from './stop.js';

export interface ImportPorts {
  run: RunHandle;
  /** Opens `file` (a path where the runner's location finds it) as records named for reports. */
  open<K extends RecordKind>(feed: FeedOf<K>, file: string): RecordStream<RecordOf<K>>;
  /** Hands a chunk over for syncing; resolves once accepted (this is the import's backpressure). */
  dispatch(chunk: Chunk): Promise<void>;
  /** Resolves the chunk settings (e.g. finds or creates the target bank account). */
  prepare(feed: Feed): Promise<ChunkSettings>;
  /** Hears why a file was stopped (the jobs pass their logger). */
  logger?: Pick<Logger, 'error'>;
  /**
   * Dry runs: what the service already holds of a chunk (read-only; sync/predict.ts). Absent:
   * every record counts as would-send.
   */
  predict?(chunk: Chunk): Promise<Prediction>;
}

export interface ImportResult {
  /** The file's name in reports (RecordStream.file): its path, or a remote location's label and path. */
  file: string;
  sha256: string;
  records: number;
  chunks: number;
  /** The encoding the file was read with; undefined when it could not be decoded. */
  encoding?: FileEncoding;
  /** Workbook formats: the sheet read. */
  sheet?: string;
  /** What the format's reading reports of the file, settled with its records at the run's end. */
  report: FormatReport;
  /** A database read: the cursor range it covered (the run's end advances the stored position). */
  cursor?: CursorRange;
}

function reportable(outcome: MapOutcome): RecordOutcome | undefined {
  if (outcome.kind === 'rejected') return { ...outcome.record, outcome: 'rejected' };
  if (outcome.kind === 'excluded')
    return {
      file: outcome.record.file,
      line: outcome.record.line,
      ...(outcome.record.key !== undefined ? { key: outcome.record.key } : {}),
      outcome: 'skipped',
      code: 'EXCLUDED',
      message: outcome.record.reason,
      amount: outcome.record.amount,
    };
  return undefined;
}

/**
 * Keeps the first record of each externalId across the whole run (every chunk and file) and
 * reports the others (docs/once-only.md): the service would otherwise get two creates for one
 * target (two invoices; with concurrency, even two chunks racing past the lookup), and every later
 * run would find two and refuse both as AMBIGUOUS_TARGET. An exact repeat (same payload: the same
 * row in two overlapping files) is skipped; a different record under the same externalId is
 * rejected, naming the first's file and line, never "already in the service". Before that, a
 * record's booking (a bank's entry) counts once, whatever its shape (first-booking.ts).
 */
async function firstOfRun<R extends MappedRecord>(kind: string, whole: R[], run: RunHandle): Promise<R[]> {
  if (!run.claimExternalIds) return whole;
  const repeats: RecordOutcome[] = [];
  const batch = await firstOfEachBooking(kind, whole, run.claimExternalIds.bind(run), repeats);
  const seen = await run.claimExternalIds(kind, batch);
  const kept: R[] = [];
  batch.forEach((record, i) => {
    const first = seen[i];
    if (!first) kept.push(record);
    else if (first.sameContent)
      repeats.push(
        outcomeOf(record, {
          outcome: 'skipped',
          code: 'DUPLICATE_IN_SOURCE',
          message: `same record as ${first.file}:${first.line} (same externalId "${record.externalId}", same content); synced once, from there`,
        }),
      );
    else
      repeats.push(
        outcomeOf(record, {
          outcome: 'rejected',
          code: 'DUPLICATE_IN_SOURCE',
          message: `externalId "${record.externalId}" already appears at ${first.file}:${first.line} in this run with different content; only that first record is synced (first wins): remove or correct the duplicate in the export`,
        }),
      );
  });
  if (repeats.length > 0) await run.report.record(repeats);
  return kept;
}

/**
 * Reads one export file and hands its records over in chunks of at most 1000. Rejected and
 * excluded rows are reported here and never leave the process. Once the run is stopped, the rest
 * of the file is still read so that every record is accounted for (failed, with the stop reason).
 */
export async function importFile<K extends RecordKind>(
  feed: FeedOf<K>,
  file: string,
  dryRun: boolean,
  ports: ImportPorts,
): Promise<ImportResult> {
  const { run } = ports;
  let settings: ChunkSettings | undefined;
  // Why nothing of the file can be sent when its settings could not be prepared.
  let unprepared: { code: string; message: string } | undefined;
  try {
    // A run stopped before its first file (e.g. changed identity settings) prepares nothing: for
    // transactions that could create the target bank account.
    if (!(await run.stopReason())) settings = await ports.prepare(feed);
  } catch (error) {
    const stop = error instanceof RunStopError ? error : stopFor(error);
    if (stop) await run.stop({ code: stop.code, message: stop.message, exitCode: stop.exitCode });
    // A transient failure (the service kept answering 500, the connection kept dropping, the
    // target's create stayed unconfirmed) must not abort the whole run without a report: like a
    // chunk that keeps failing, it fails this file's records with the reason and the run goes on.
    // The next run prepares again (and re-checks before creating anything).
    else if (error instanceof ApiError)
      unprepared = {
        code: error.code,
        message: `not sent, the feed's target could not be prepared: ${error.message}`,
      };
    else throw error;
  }
  const stream = ports.open(feed, file);
  const name = stream.file;
  let records = 0;
  let chunks = 0;
  let local: RecordOutcome[] = [];
  const handOver = async (whole: RecordOf<K>[]) => {
    const stop = await run.stopReason();
    const batch = stop || !settings ? whole : await firstOfRun(feed.kind, whole, run);
    if (batch.length === 0) return;
    chunks++;
    if (stop || !settings)
      await run.report.record(
        failedAll(
          batch,
          stop ? stoppedOutcome(stop) : (unprepared ?? { code: 'RUN_STOPPED', message: 'the run stopped' }),
        ),
      );
    else {
      const chunk = chunkOf<K>({
        runId: run.runId,
        feed: feed.name,
        kind: feed.kind,
        accountId: feed.accountId,
        seq: chunks,
        settings,
        records: batch,
      });
      if (!dryRun) await ports.dispatch(chunk);
      else if (!ports.predict) await run.wouldSend?.(batch);
      else {
        const { skipped, send } = await ports.predict(chunk);
        if (skipped.length > 0) await run.report.record(skipped);
        if (send.length > 0) await run.wouldSend?.(send);
      }
    }
  };
  const chunker = new Chunker<RecordOf<K>>();
  let layoutStopped = false;
  // A mapping that does not fit the file's header is the feed's mistake, not the rows': the run
  // stops as an invalid feed (exit 2) naming the file, rather than rejecting every row (exit 1).
  const stopOnLayout = async () => {
    const layout = layoutStopped ? undefined : stream.layoutProblem?.();
    if (!layout) return;
    layoutStopped = true;
    await run.stop({ code: 'SOURCE_LAYOUT', message: `${name}: ${layout}`, exitCode: 2 });
  };
  let stopped: StopReason | undefined;
  for await (const batch of untilFileStop(stream.batches, (error) => (stopped = error))) {
    await stopOnLayout();
    for (const outcome of batch) {
      records++;
      const report = reportable(outcome);
      if (report) {
        local.push(report);
        if (local.length >= 1000) {
          await run.report.record(local);
          local = [];
        }
      } else if (outcome.kind === 'mapped') {
        const full = chunker.add(outcome.record);
        if (full) await handOver(full);
      }
    }
  }
  // A header without data rows: its check comes once the reader ended.
  await stopOnLayout();
  if (stopped) {
    // A file that cannot be read as configured (its encoding), or whose location failed (a
    // refused login, a lost connection after the retries): nothing more of it is sent, and the
    // run stops with the exit code that says which (2: the settings), naming the file or location.
    ports.logger?.error({ code: stopped.code, file: name }, `file stopped: ${stopped.message}`);
    await run.stop(stopped);
  }
  const last = chunker.rest();
  if (last) await handOver(last);
  if (local.length > 0) await run.report.record(local);
  const encoding = await stream.encoding;
  const sheet = stream.sheet();
  const cursor = stream.cursor?.();
  return {
    file: name,
    // A file whose location failed was not read to its end: no fingerprint of its whole content.
    sha256: await stream.sha256.catch((error: unknown) => {
      if (stopped && !(error instanceof FileStopError)) return `(not read to the end: ${stopped.code})`;
      throw error;
    }),
    records,
    chunks,
    ...(encoding ? { encoding } : {}),
    ...(sheet !== undefined ? { sheet } : {}),
    report: stream.report(stopped !== undefined),
    ...(cursor ? { cursor } : {}),
  };
}

/**
 * The batches until the reader throws a FileStopError (exit 2) or its location fails, which go to
 * `onStop` instead; anything else is thrown on.
 */
async function* untilFileStop<T>(
  batches: AsyncIterable<T>,
  onStop: (stop: StopReason) => void,
): AsyncGenerator<T> {
  try {
    yield* batches;
  } catch (error) {
    if (error instanceof FileStopError) onStop({ code: error.code, message: error.message, exitCode: 2 });
    else if (error instanceof LocationError)
      onStop({ code: error.code, message: error.message, exitCode: error.exitCode });
    else throw error;
  }
}
