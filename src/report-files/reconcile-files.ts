import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { ReconcileLine } from '../sync/reconcile/reconcile.js';
import type { ReconcileReport, ReconcileSummary } from '../sync/reconcile/summary.js';
import { writeFileAtomic } from './atomic-file.js';
import { csvLine } from './csv.js';
import { type ReportFiles, reportFiles } from './file-sink.js';
import { closeStream, write } from './stream-write.js';

export const RECONCILE_COLUMNS = [
  'file',
  'line',
  'externalId',
  'verdict',
  'serviceId',
  'fields',
  'source',
  'service',
  'amount',
  'message',
  'reconcileId',
] as const;

/** The reconcile's report folder: the same four paths as a sync's, other file names. */
export type ReconcileFiles = ReportFiles;

/** A differing field's values as one JSON object per side ({"amount": 10.5}). */
const side = (line: ReconcileLine, which: 'source' | 'service') =>
  line.fields && JSON.stringify(Object.fromEntries(line.fields.map((f) => [f.field, f[which]])));

/** One line of reconcile.csv (also `erp-bridge report <reconcileId>`'s). */
export const reconcileCsvLine = (line: ReconcileLine, reconcileId: string): string =>
  csvLine([
    line.file,
    line.line,
    line.externalId,
    line.verdict,
    line.serviceId,
    line.fields?.map((f) => f.field).join(';'),
    side(line, 'source'),
    side(line, 'service'),
    line.amount,
    line.message,
    reconcileId,
  ]);

/** One line of reconcile.ndjson. */
export const reconcileJsonLine = (line: ReconcileLine, reconcileId: string): string =>
  `${JSON.stringify({ ...line, reconcileId })}\n`;

/**
 * A reconcile's report folder under --report-dir, like a sync's: reconcile.csv (safe to open in a
 * spreadsheet) and reconcile.ndjson, a line per record as the comparison meets it (extras as the
 * listing meets them, the exports' records in their order), and summary.json, atomically, last.
 */
export class ReconcileFileSink implements ReconcileReport {
  private constructor(
    readonly files: ReconcileFiles,
    private readonly id: string,
    private readonly csv: WriteStream,
    private readonly ndjson: WriteStream,
  ) {}

  static async create(reportDir: string, id: string): Promise<ReconcileFileSink> {
    const files = reportFiles(reportDir, id, 'reconcile');
    await mkdir(files.dir, { recursive: true });
    const sink = new ReconcileFileSink(
      files,
      id,
      createWriteStream(files.csv),
      createWriteStream(files.ndjson),
    );
    await write(sink.csv, csvLine(RECONCILE_COLUMNS));
    return sink;
  }

  async line(line: ReconcileLine): Promise<void> {
    await write(this.csv, reconcileCsvLine(line, this.id));
    await write(this.ndjson, reconcileJsonLine(line, this.id));
  }

  async finish(summary: ReconcileSummary): Promise<void> {
    await Promise.all([closeStream(this.csv), closeStream(this.ndjson)]);
    await writeFileAtomic(this.files.summary, `${JSON.stringify(summary, null, 2)}\n`);
  }
}
