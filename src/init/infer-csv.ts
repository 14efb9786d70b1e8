import type { RecordKind } from '../kinds/registry.js';
import type { TextEncoding } from '../sources/text-encoding.js';
import { decodeSample } from './encoding.js';
import { inferTable, type TableInference } from './infer-table.js';
import { guess, type Inferred, sure } from './inferred.js';
import type { ExportSample } from './sample.js';
import { findTable } from './table.js';

/**
 * What init inferred from a delimited text export: the feed's `source` keys, and what its cells
 * tell (infer-table.ts: number and date style, kind, mapping, identity).
 */
export interface CsvInference extends Omit<TableInference, 'records'> {
  /** How much was looked at: the caps and what of them the sample filled. */
  sample: { bytes: number; rows: number; complete: boolean; rowsCapped: boolean };
  format: Inferred<'csv'>;
  encoding: Inferred<TextEncoding>;
  delimiter: Inferred<string>;
  quote: Inferred<string>;
  /** Preamble: lines before the header. */
  skipLines: Inferred<number>;
  /** Finds the header whatever the preamble's length (only when there is a preamble). */
  headerPattern?: Inferred<string>;
  skipFooterLines: Inferred<number>;
  header: readonly string[];
}

export type CsvInferenceResult = { ok: true; inference: CsvInference } | { ok: false; problem: string };

/**
 * Infers a CSV feed from the sample of one export (sample.ts: its caps). Pure: bytes in, settings
 * out, each with its certainty and reason (inferred.ts); the YAML writer and the CLI are apart.
 */
export function inferCsv(sample: ExportSample, options: { kind?: RecordKind } = {}): CsvInferenceResult {
  const decoded = decodeSample(sample);
  if (!decoded)
    return { ok: false, problem: 'the export is neither UTF-8, UTF-16 nor Windows-1252: save it as UTF-8' };
  const table = findTable(decoded.text, sample.complete);
  if (!table)
    return {
      ok: false,
      problem: 'no delimited table found (no header of two or more columns with ; , tab or |)',
    };
  const cells = inferTable(
    {
      header: table.header,
      rows: table.rows,
      preamble: table.preamble,
      delimiter: table.delimiter.value ?? ';',
    },
    options,
  );
  return {
    ok: true,
    inference: {
      sample: {
        bytes: sample.bytes.length,
        rows: cells.records,
        complete: sample.complete,
        rowsCapped: table.rowsCapped,
      },
      format: sure(
        'csv',
        `a delimited table: a header of ${table.header.length} columns${table.rows.length > 0 ? ` and ${table.rows.length} rows of as many` : ''}`,
      ),
      encoding: decoded.encoding,
      delimiter: table.delimiter,
      quote: table.quote,
      skipLines: sure(
        table.skipLines,
        table.skipLines === 0
          ? 'the header is the first line'
          : `the header is line ${table.headerLine}; the lines before it are a preamble`,
      ),
      ...(table.headerPattern === undefined
        ? {}
        : {
            headerPattern: sure(
              table.headerPattern,
              'finds the header even when the preamble has another number of lines',
            ),
          }),
      skipFooterLines:
        table.skipFooterLines > 0
          ? guess(
              table.skipFooterLines,
              `the last ${table.skipFooterLines} line(s) have fewer cells than the header`,
            )
          : sample.complete
            ? sure(0, 'every line after the header is a row')
            : guess(0, 'not looked for: the sample is not the whole file'),
      header: table.header,
      decimalSeparator: cells.decimalSeparator,
      thousands: cells.thousands,
      dateFormat: cells.dateFormat,
      dateColumns: cells.dateColumns,
      kind: cells.kind,
      mapping: cells.mapping,
      missing: cells.missing,
      identity: cells.identity,
      ...(cells.exclude ? { exclude: cells.exclude } : {}),
      ...(cells.skipRowsMatching ? { skipRowsMatching: cells.skipRowsMatching } : {}),
    },
  };
}
