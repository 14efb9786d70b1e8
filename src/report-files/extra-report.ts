import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import type { RecordOutcome } from '../sync/outcome.js';
import { excelCsvHeader, outcomeExcelCsvLine } from './excel-csv.js';
import { closeStream, failureOf, write } from './stream-write.js';

/**
 * The report formats beside outcomes.csv and outcomes.ndjson (src/config/report-format.ts names
 * them for the settings; this folder does not import config).
 */
export type ExtraReport = 'excel' | 'excel-csv';

export function extraReportFile(dir: string, format: ExtraReport): string {
  return join(dir, format === 'excel' ? 'outcomes.xlsx' : 'outcomes.excel.csv');
}

/** The outcomes of an outcomes.ndjson, in its order (report order), without the run id. */
export async function* outcomesOfNdjson(path: string): AsyncGenerator<RecordOutcome> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const { runId: _, ...outcome } = JSON.parse(line) as RecordOutcome & { runId: string };
    yield outcome;
  }
}

/** Writes the outcomes as outcomes.excel.csv to `out` (a file or stdout). */
export async function writeOutcomesExcelCsv(
  out: Writable,
  outcomes: AsyncIterable<RecordOutcome>,
  runId: string,
  columns: readonly string[],
): Promise<void> {
  await write(out, excelCsvHeader(columns));
  let piece = '';
  for await (const o of outcomes) {
    piece += outcomeExcelCsvLine(o, runId);
    if (piece.length >= 64 * 1024) {
      await write(out, piece);
      piece = '';
    }
  }
  if (piece) await write(out, piece);
}

/**
 * Writes the run's outcomes once more in `format`, read back from the finished outcomes.ndjson
 * (streamed: memory stays flat), beside it under a `.part` name and renamed when whole. The
 * workbook writer and its zip package are loaded only here, when the format asks for them.
 */
export async function writeExtraReport(
  format: ExtraReport,
  dir: string,
  ndjson: string,
  runId: string,
  columns: readonly string[],
): Promise<string> {
  const path = extraReportFile(dir, format);
  const part = `${path}.part`;
  try {
    if (format === 'excel') {
      const { writeOutcomesXlsx } = await import('./outcome-xlsx.js');
      await writeOutcomesXlsx(part, outcomesOfNdjson(ndjson), runId);
    } else {
      const out = createWriteStream(part);
      const failure = failureOf(out);
      await Promise.race([writeOutcomesExcelCsv(out, outcomesOfNdjson(ndjson), runId, columns), failure]);
      await Promise.race([closeStream(out), failure]);
    }
    await rename(part, path);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
  return path;
}
