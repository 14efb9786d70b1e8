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

export const OUTCOME_COLUMNS = [
  'file',
  'line',
  'externalId',
  'outcome',
  'serviceId',
  'code',
  'message',
  'amount',
] as const;

/** One outcome as a CSV line of OUTCOME_COLUMNS, in that order (spelt out: every record passes here). */
export function outcomeCsvLine(o: RecordOutcome): string {
  return csvLine([o.file, o.line, o.externalId, o.outcome, o.serviceId, o.code, o.message, o.amount]);
}

let lastFile: string | undefined;
let lastFileJson = '';

/**
 * One outcome as an NDJSON line, keys in the order of OUTCOME_COLUMNS, absent ones left out; the
 * same JSON as JSON.stringify would write, built directly: every record passes here, and a file's
 * path (the same for all its records) is escaped once.
 */
export function outcomeJsonLine(o: RecordOutcome): string {
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
  return `${line}}\n`;
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

/** Writes a run's report as it goes: outcomes.csv and outcomes.ndjson streamed, summary.json at the end. */
export class FileReportSink implements ReportSink {
  private constructor(
    readonly files: ReportFiles,
    private readonly csv: WriteStream,
    private readonly ndjson: WriteStream,
  ) {}

  static async create(reportDir: string, runId: string): Promise<FileReportSink> {
    const files = reportFiles(reportDir, runId);
    await mkdir(files.dir, { recursive: true });
    const csv = createWriteStream(files.csv);
    const ndjson = createWriteStream(files.ndjson);
    const sink = new FileReportSink(files, csv, ndjson);
    await write(csv, csvLine(OUTCOME_COLUMNS));
    return sink;
  }

  async record(outcomes: readonly RecordOutcome[]): Promise<void> {
    // Joined once per batch: a flat string per file, not a rope of thousands of pieces.
    const csv: string[] = [];
    const ndjson: string[] = [];
    for (const o of outcomes) {
      csv.push(outcomeCsvLine(o));
      ndjson.push(outcomeJsonLine(o));
    }
    await Promise.all([write(this.csv, csv.join('')), write(this.ndjson, ndjson.join(''))]);
  }

  async finish(summary: RunSummary): Promise<void> {
    await Promise.all([closeStream(this.csv), closeStream(this.ndjson)]);
    // Atomic: a summary.json that exists is whole (a kill mid-write used to leave half of one).
    await writeFileAtomic(this.files.summary, `${JSON.stringify(summary, null, 2)}\n`);
  }
}

async function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return;
  stream.end();
  await once(stream, 'close');
}
