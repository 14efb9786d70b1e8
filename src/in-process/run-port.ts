import { createWriteStream } from 'node:fs';
import type { Feed, FeedOf } from '../config/feed.js';
import type { RecordKind } from '../kinds/registry.js';
import { FileReportSink, type ReportFiles } from '../report-files/file-sink.js';
import { closeStream, write } from '../report-files/stream-write.js';
import { nameOf } from '../sources/locations/export-file.js';
import type { Location } from '../sources/locations/location.js';
import type { RecordStream } from '../sources/open-records.js';
import type { MapOutcome } from '../sources/record.js';
import type { RecordOf } from '../sources/record-of.js';
import type { Chunk } from '../sync/chunk.js';
import { type IdentityStore, storeBeforeFirstWrite } from '../sync/identity/check.js';
import type { SyncMeter } from '../sync/meter.js';
import type { Opener, RunPort } from '../sync/run/run-port.js';
import { MemoryRun, type ProgressListener } from './memory-run.js';
import { withReadProgress } from './read-progress.js';

/** A run of this process with its report folder; a dry run's would-send.ndjson is written there too. */
export async function reportedRun(
  runId: string,
  feed: Feed,
  dryRun: boolean,
  deps: { reportDir: string; onProgress?: ProgressListener; meter?: SyncMeter },
): Promise<{ run: MemoryRun; files: ReportFiles; close(): Promise<void> }> {
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
  return { run, files: sink.files, close: async () => wouldSendFile && closeStream(wouldSendFile) };
}

export interface MemoryPortOptions {
  /** Where the run's exports lie: names the files an interrupt left unread. */
  location: Location;
  /** The user's interrupt: no further file is read, the one being read is cut (untilInterrupted). */
  interrupt?: AbortSignal;
  onProgress?: ProgressListener;
  /** Where the feed's identity settings are stored before the run's first write. */
  identity?: { store: IdentityStore; feed: string };
  /** Once every chunk has settled (the dry run's would-send file closed). */
  drained?(): Promise<void>;
}

/**
 * The in-process runner's RunPort: chunks wait for the memory gate and run in this process
 * (`dispatch` resolves once the chunk holds its slot, and hands its execution to `running`: the
 * run's end waits for it), outcomes and the summary are kept by MemoryRun and its report files.
 */
export function memoryPort(
  run: MemoryRun,
  dispatch: (chunk: Chunk, running: (task: Promise<void>) => void) => Promise<void>,
  options: MemoryPortOptions,
): RunPort {
  const { interrupt, location, identity } = options;
  const inFlight = new Set<Promise<void>>();
  const interrupted = () => interrupt?.aborted === true;
  // Per file read: where reading stopped on an interrupt (the summary names the line).
  const readings = new Map<string, { lastLine: number; stopped: boolean }>();
  return {
    ...run.kept,
    dispatch: (chunk) =>
      dispatch(chunk, (task) => {
        inFlight.add(task);
        void task.finally(() => inFlight.delete(task));
      }),
    drain: async () => {
      await Promise.all(inFlight);
      await options.drained?.();
    },
    skip: interrupted,
    watch: (path, open) => {
      const reading = { lastLine: 0, stopped: false };
      readings.set(path, reading);
      return withReadProgress(
        interrupt ? untilInterrupted(interrupt, reading, open) : open,
        options.onProgress,
      );
    },
    interrupted: (paths, reads) => {
      if (!interrupted()) return undefined;
      const readAt = new Map(reads.map((r) => [r.path, r]));
      const unread = paths.flatMap((path) => {
        const read = readAt.get(path);
        if (!read) return [{ path: nameOf(location, path), readUpToLine: 0 }];
        const reading = readings.get(path);
        return reading?.stopped ? [{ path: read.file, readUpToLine: reading.lastLine }] : [];
      });
      return { signal: String(interrupt?.reason), unread };
    },
    expectWrites: async (settings) => {
      if (identity)
        run.beforeWrite = storeBeforeFirstWrite(() => identity.store.save(identity.feed, settings));
    },
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
  open: Opener,
): Opener {
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
