import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordOutcome } from '../sync/outcome.js';
import type { ReportSink } from '../sync/report/sink.js';
import type { RunSummary } from '../sync/report/summary.js';
import { writeFileAtomic } from './atomic-file.js';
import { csvLine } from './csv.js';
import { type ExtraReport, writeExtraReport } from './extra-report.js';
import { type LineFormat, OrderedLines } from './ordered-lines.js';

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
  // Last, so a reader of the columns by position reads the earlier ones as before: a database
  // row's key (issue 29), empty for a file's.
  'key',
] as const;

/** One outcome as a CSV line of OUTCOME_COLUMNS, in that order (spelt out: every record passes here). */
export function outcomeCsvLine(o: RecordOutcome, runId: string): string {
  return csvLine([
    o.file,
    o.line,
    o.externalId,
    o.outcome,
    o.serviceId,
    o.code,
    o.message,
    o.amount,
    runId,
    o.key,
  ]);
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
  line += `,"runId":${lastRunIdJson}`;
  if (o.key !== undefined) line += `,"key":${JSON.stringify(o.key)}`;
  return `${line}}\n`;
}

export interface ReportFiles {
  dir: string;
  summary: string;
  csv: string;
  ndjson: string;
}

/** The report folder of a run (or reconcile, `lines` 'reconcile'): its summary and its lines' two files. */
export function reportFiles(reportDir: string, id: string, lines = 'outcomes'): ReportFiles {
  const dir = join(reportDir, id);
  return {
    dir,
    summary: join(dir, 'summary.json'),
    csv: join(dir, `${lines}.csv`),
    ndjson: join(dir, `${lines}.ndjson`),
  };
}

/** The two outcome files' lines; an NDJSON line reads back as its outcome (the run id dropped). */
function outcomeLines(runId: string): LineFormat {
  return {
    headers: [csvLine(OUTCOME_COLUMNS), ''],
    lines: (o) => [outcomeCsvLine(o, runId), outcomeJsonLine(o, runId)],
    parseFrom: 1,
    parse: (line) => {
      const { runId: _, ...outcome } = JSON.parse(line) as RecordOutcome & { runId: string };
      return outcome;
    },
  };
}

/**
 * Writes a run's report: outcomes.csv and outcomes.ndjson in report order (files by name, records
 * by line, whatever order chunks finished in; see ordered-lines.ts), each line with the run id,
 * complete under their names at the end; summary.json last, atomically.
 */
export class FileReportSink implements ReportSink {
  private constructor(
    readonly files: ReportFiles,
    private readonly ordered: OrderedLines,
    private readonly runId: string,
    private readonly extra: ExtraReport | undefined,
  ) {}

  /** `extra`: the outcomes also as a workbook or a German-Excel CSV (extra-report.ts). */
  static async create(reportDir: string, runId: string, extra?: ExtraReport): Promise<FileReportSink> {
    const files = reportFiles(reportDir, runId);
    await mkdir(files.dir, { recursive: true });
    const ordered = new OrderedLines(
      [files.csv, files.ndjson],
      outcomeLines(runId),
      join(files.dir, '.outcomes.spill'),
    );
    return new FileReportSink(files, ordered, runId, extra);
  }

  async record(outcomes: readonly RecordOutcome[]): Promise<void> {
    await this.ordered.add(outcomes);
  }

  async finish(summary: RunSummary): Promise<void> {
    await this.ordered.finish();
    try {
      // From the finished outcomes.ndjson, so outcomes.csv and .ndjson are written as without it.
      if (this.extra)
        await writeExtraReport(this.extra, this.files.dir, this.files.ndjson, this.runId, OUTCOME_COLUMNS);
    } finally {
      // Even when the extra report failed (its error goes on): the run's summary is never lost to it.
      // Atomic, so a summary.json that exists is whole even when the process is killed mid-write.
      await writeFileAtomic(this.files.summary, `${JSON.stringify(summary, null, 2)}\n`);
    }
  }
}
