import { createWriteStream } from 'node:fs';
import type { Feed } from '../config/feed.js';
import type { ReportFormat } from '../config/report-format.js';
import { FileReportSink, type ReportFiles } from '../report-files/file-sink.js';
import { closeStream, write } from '../report-files/stream-write.js';
import type { SyncMeter } from '../sync/meter.js';
import { MemoryRun, type ProgressListener } from './memory-run.js';

/** A run of this process with its report folder; a dry run's would-send.ndjson is written there too. */
export async function reportedRun(
  runId: string,
  feed: Feed,
  dryRun: boolean,
  deps: { reportDir: string; reportFormat?: ReportFormat; onProgress?: ProgressListener; meter?: SyncMeter },
): Promise<{ run: MemoryRun; files: ReportFiles; close(): Promise<void> }> {
  // The flag or environment's format, else the feed's: csv writes outcomes.csv/.ndjson only.
  const format = deps.reportFormat ?? feed.report?.format ?? 'csv';
  const sink = await FileReportSink.create(deps.reportDir, runId, format === 'csv' ? undefined : format);
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
