import { asExportFile, type ExportFile, readChunks } from '../sources/locations/export-file.js';

/**
 * What init looks at of an export: its first SAMPLE_BYTES bytes, and of them at most SAMPLE_ROWS
 * data rows. Enough for the shape of a bank's or ERP's export (a month of bookings), bounded so
 * that init on a gigabyte file costs one small ranged read, on any location.
 */
export const SAMPLE_BYTES = 256 * 1024;
export const SAMPLE_ROWS = 500;

/** The first bytes of an export, and whether they are the whole file. */
export interface ExportSample {
  bytes: Buffer;
  /** True when the file ends within the sample (its last line is complete and its rows all seen). */
  complete: boolean;
}

/**
 * The sample and the export it is of: a reader that needs more than the first bytes (a
 * workbook's zip index is at its end) reads the export itself, in ranges, through its location.
 */
export interface SampledExport extends ExportSample {
  readonly file: ExportFile;
}

/** Reads the sample of an export through its location (local, SFTP, S3 alike). */
export async function readSample(given: string | ExportFile, cap = SAMPLE_BYTES): Promise<SampledExport> {
  const file = asExportFile(given);
  const chunks: Buffer[] = [];
  let length = 0;
  // One byte past the cap tells whether the file goes on.
  for await (const chunk of readChunks(file, { start: 0, end: cap + 1 })) {
    chunks.push(chunk);
    length += chunk.length;
    if (length > cap) break;
  }
  const bytes = Buffer.concat(chunks);
  return bytes.length > cap
    ? { bytes: bytes.subarray(0, cap), complete: false, file }
    : { bytes, complete: true, file };
}

/** The sample's text up to its last line break when the cap cut it: a line the cap cut off is no row. */
export function wholeLines(text: string, complete: boolean): string {
  return complete ? text : text.slice(0, Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
}
