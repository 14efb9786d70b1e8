import type { FormatReading } from '../sources/formats/source-format.js';
import type { Columns, RowProblem, SourceRow } from '../sources/row.js';
import { type ExportSample, SAMPLE_ROWS } from './sample.js';

/** What a format's own reader made of a sample: its first rows, and where it stopped. */
export interface SampleRows {
  /** The header, when the format has one and the reader got to it. */
  columns: Columns | undefined;
  rows: readonly SourceRow[];
  problems: readonly RowProblem[];
  /** Why the reader stopped before the sample's end (a file it refuses, or the cap's cut). */
  stopped?: string;
  /** More rows than SAMPLE_ROWS: the rest were not read. */
  capped: boolean;
}

/**
 * Runs one of erp-bridge's readers over a sample and keeps its first rows: init infers from the
 * rows exactly as `sync` would read them, through the same reader, never a parser of its own.
 */
export async function sampleRows(reading: FormatReading, max = SAMPLE_ROWS): Promise<SampleRows> {
  const rows: SourceRow[] = [];
  const problems: RowProblem[] = [];
  let stopped: string | undefined;
  let capped = false;
  try {
    read: for await (const batch of reading.batches)
      for (const item of batch) {
        if (item.kind === 'problem') problems.push(item.problem);
        else if (rows.length < max) rows.push(item.row);
        else {
          capped = true;
          break read;
        }
      }
  } catch (error) {
    stopped = error instanceof Error ? error.message : String(error);
  }
  // The header is known once the first batch was read, or the reading ended without one.
  const columns = await Promise.race([reading.columns, Promise.resolve(undefined)]);
  return { columns, rows, problems, capped, ...(stopped === undefined ? {} : { stopped }) };
}

/** FeedInference's `sample`: how much was looked at, for a format read through its reader. */
export function sampleSummary(
  sample: ExportSample,
  read: SampleRows,
  rows = read.rows.length,
): { bytes: number; rows: number; complete: boolean; rowsCapped: boolean } {
  return { bytes: sample.bytes.length, rows, complete: sample.complete, rowsCapped: read.capped };
}
