import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { RecordOutcome } from '../sync/outcome.js';
import type { ReportSink } from '../sync/report/sink.js';
import type { RunSummary } from '../sync/report/summary.js';
import { writeFileAtomic } from './atomic-file.js';
import { csvLine } from './csv.js';
import { OrderedSpill } from './ordered-spill.js';

export const OUTCOME_COLUMNS = [
  'file',
  'line',
  'externalId',
  'outcome',
  'serviceId',
  'code',
  'message',
  'amount',
  'runId',
] as const;

/** One outcome as a CSV line of OUTCOME_COLUMNS, in that order (spelt out: every record passes here). */
export function outcomeCsvLine(o: RecordOutcome, runId: string): string {
  return csvLine([o.file, o.line, o.externalId, o.outcome, o.serviceId, o.code, o.message, o.amount, runId]);
}

let lastFile: string | undefined;
let lastFileJson = '';
let lastRunId = '';
let lastRunIdJson = '""';

/**
 * One outcome as an NDJSON line, keys in the order of OUTCOME_COLUMNS, absent ones left out; the
 * same JSON as JSON.stringify would write, built directly: every record passes here, and a file's
 * path (the same for all its records) is escaped once.
 */
export function outcomeJsonLine(o: RecordOutcome, runId: string): string {
  if (o.file !== lastFile) {
    lastFile = o.file;
    lastFileJson = JSON.stringify(o.file);
  }
  let line = `{"file":${lastFileJson},"line":${o.line}`;
  if (o.externalId !== undefined) line += `,"externalId":${JSON.stringify(o.externalId)}`;
  line += `,"outcome":"${o.outcome}"`;
  if (o.serviceId !== undefined) line += `,"serviceId":${o.serviceId}`;
  if (o.code !== undefined) line += `,"code":${JSON.stringify(o.code)}`;
  if (o.message !== undefined) line += `,"message":${JSON.stringify(o.message)}`;
  if (o.amount !== undefined) line += `,"amount":${JSON.stringify(o.amount)}`;
  if (runId !== lastRunId) {
    lastRunId = runId;
    lastRunIdJson = JSON.stringify(runId);
  }
  return `${line},"runId":${lastRunIdJson}}\n`;
}

export interface ReportFiles {
  dir: string;
  summary: string;
  csv: string;
  ndjson: string;
}

export function reportFiles(reportDir: string, runId: string): ReportFiles {
  const dir = join(reportDir, runId);
  return {
    dir,
    summary: join(dir, 'summary.json'),
    csv: join(dir, 'outcomes.csv'),
    ndjson: join(dir, 'outcomes.ndjson'),
  };
}

/** Writes `text`, waiting for 'drain' when the stream's buffer is full (memory stays flat). */
export async function write(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Writes a run's report: outcomes.csv and outcomes.ndjson in report order (files by name, records
 * by line, whatever order chunks finished in; see ordered-spill.ts) at the end, each line with the
 * run id; summary.json last, atomically. Until then the outcomes wait in a spill file beside them.
 */
export class FileReportSink implements ReportSink {
  private constructor(
    readonly files: ReportFiles,
    private readonly runId: string,
    private readonly spill: OrderedSpill,
  ) {}

  static async create(reportDir: string, runId: string): Promise<FileReportSink> {
    const files = reportFiles(reportDir, runId);
    await mkdir(files.dir, { recursive: true });
    return new FileReportSink(files, runId, new OrderedSpill(join(files.dir, '.outcomes.spill')));
  }

  async record(outcomes: readonly RecordOutcome[]): Promise<void> {
    await this.spill.add(outcomes);
  }

  async finish(summary: RunSummary): Promise<void> {
    const csv = createWriteStream(this.files.csv);
    const ndjson = createWriteStream(this.files.ndjson);
    await write(csv, csvLine(OUTCOME_COLUMNS));
    // Joined per thousand lines: a flat string per write, not one call per record.
    let csvLines: string[] = [];
    let jsonLines: string[] = [];
    const flush = async () => {
      await Promise.all([write(csv, csvLines.join('')), write(ndjson, jsonLines.join(''))]);
      csvLines = [];
      jsonLines = [];
    };
    for await (const o of this.spill.drain()) {
      csvLines.push(outcomeCsvLine(o, this.runId));
      jsonLines.push(outcomeJsonLine(o, this.runId));
      if (csvLines.length >= 1000) await flush();
    }
    await flush();
    await Promise.all([closeStream(csv), closeStream(ndjson)]);
    // Atomic, so a summary.json that exists is whole even when the process is killed mid-write.
    await writeFileAtomic(this.files.summary, `${JSON.stringify(summary, null, 2)}\n`);
  }
}

async function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  stream.end();
  await once(stream, 'close');
}
