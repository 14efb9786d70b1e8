import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Writable } from 'node:stream';
import type { RecordOutcome } from '../sync/outcome.js';
import { scanLines } from './capped-lines.js';
import { excelCsvHeader, outcomeExcelCsvLine } from './excel-csv.js';
import { OutcomeLine } from './outcome-line.js';
import { closeStream, failureOf, write } from './stream-write.js';

/**
 * The report formats beside outcomes.csv and outcomes.ndjson (src/config/report-format.ts names
 * them for the settings; this folder does not import config).
 */
export type ExtraReport = 'excel' | 'excel-csv';

export function extraReportFile(dir: string, format: ExtraReport): string {
  return join(dir, format === 'excel' ? 'outcomes.xlsx' : 'outcomes.excel.csv');
}

/**
 * The outcomes of an outcomes.ndjson, in its order (report order), without the run id. The whole
 * file, however long (memory stays flat); a line that is no outcome (damaged, or longer than a
 * record line can be) is not left out quietly: the extra report would hold fewer rows than
 * outcomes.csv and look whole, so its end throws, naming the file and the first such line.
 */
export async function* outcomesOfNdjson(path: string, target: string): AsyncGenerator<RecordOutcome> {
  const scan = scanLines(path, OutcomeLine, () => true, { maxLines: Number.POSITIVE_INFINITY });
  yield* scan.records;
  const first = scan.firstUnreadable;
  if (first)
    throw new Error(
      `${path}: ${scan.unreadable === 1 ? 'a line is' : `${scan.unreadable} lines are`} not an outcome ` +
        `(the first, line ${first.line}: ${first.problem}); ${target} is not written, ` +
        'outcomes.csv and outcomes.ndjson are',
    );
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
      await writeOutcomesXlsx(part, outcomesOfNdjson(ndjson, basename(path)), runId);
    } else {
      const out = createWriteStream(part);
      const failure = failureOf(out);
      await Promise.race([
        writeOutcomesExcelCsv(out, outcomesOfNdjson(ndjson, basename(path)), runId, columns),
        failure,
      ]);
      await Promise.race([closeStream(out), failure]);
    }
    await rename(part, path);
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  }
  return path;
}
