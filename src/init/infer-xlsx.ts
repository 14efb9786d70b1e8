import type { RecordKind } from '../kinds/registry.js';
import { readXlsx } from '../sources/formats/xlsx-reader.js';
import { XlsxSource } from '../sources/formats/xlsx-source.js';
import type { SourceRow } from '../sources/row.js';
import type { FeedInference, FeedInferenceResult } from './feed-shape.js';
import { inferTable } from './infer-table.js';
import { ask, guess, sure } from './inferred.js';
import type { ExportSample } from './sample.js';
import { sampleInput } from './sample-location.js';
import { sampleRows, sampleSummary } from './sample-rows.js';
import { findRowsTable } from './table.js';
import { feedOfTable } from './table-feed.js';

/**
 * An Excel workbook whose whole file is the sample, read through the xlsx reader (its zip and
 * size caps): the first sheet's header and rows, inferred as a table's. Number and date cells
 * reach the mapper written in the source's decimalSeparator and dateFormat (xlsx-cell.ts), so
 * those settings are what the text cells show. A workbook larger than the sample is not read
 * here: a zip's directory is at its end.
 */
export async function inferXlsx(
  detected: FeedInference['format'],
  sample: ExportSample,
  options: { kind?: RecordKind },
): Promise<FeedInferenceResult> {
  if (!sample.complete) return { ok: true, inference: unread(detected, sample, options) };
  const input = sampleInput(sample.bytes);
  const reading = readXlsx(input.path, input, XlsxSource.parse({ format: 'xlsx', path: input.path }));
  const read = await sampleRows(reading);
  const header = read.columns?.names;
  if (!header)
    return {
      ok: false,
      problem: `the xlsx reader finds no header row: ${read.stopped ?? 'the sheet is empty'}`,
    };
  const sheet = reading.sheet?.();
  // The reader's header is the first non-empty row: a title above the table is found as in text.
  const grid = padded([header, ...read.rows.map(allCells)]);
  const found = findRowsTable(grid, '\t');
  const cells = found ?? { headerIndex: 0, header, preamble: [], rows: grid.slice(1) };
  const table = inferTable(
    { header: cells.header, rows: cells.rows, preamble: cells.preamble, delimiter: '\t' },
    options,
  );
  const headerRow = read.rows[cells.headerIndex - 1]?.line;
  return {
    ok: true,
    inference: feedOfTable(
      {
        sample: sampleSummary(sample, read, table.records),
        format: detected,
        source: [
          [
            'sheet',
            sheet === undefined
              ? guess(undefined, 'the first sheet (the default)')
              : sure(sheet, 'the first visible sheet, the one read when sheet is left out'),
          ],
          ...(found?.headerPattern
            ? [
                [
                  'headerPattern',
                  sure(
                    found.headerPattern,
                    `the header is row ${headerRow ?? '?'}; the rows above it are a title or preamble`,
                  ),
                ] as const,
              ]
            : []),
          ...(table.skipRowsMatching ? [['skipRowsMatching', table.skipRowsMatching] as const] : []),
          ['decimalSeparator', table.decimalSeparator],
          ['dateFormat', table.dateFormat],
        ],
        notes: [
          'number and date cells are typed: the reader writes them in decimalSeparator and dateFormat; text cells must be written so',
          ...(read.stopped ? [`the reader stopped: ${read.stopped}`] : []),
        ],
      },
      table,
    ),
  };
}

/** Every cell of a row, past the reader's header too (a title row read as the header is short). */
function allCells(row: SourceRow): string[] {
  const cells: string[] = [];
  for (let i = 0; row.cellAt?.(i) !== undefined; i++) cells.push(row.cellAt?.(i) ?? '');
  return cells;
}

/** Rows as wide as the widest: a sheet is a grid, its empty trailing cells unwritten. */
function padded(rows: readonly (readonly string[])[]): string[][] {
  const width = Math.max(0, ...rows.map((r) => r.length));
  return rows.map((r) => [...r, ...Array<string>(width - r.length).fill('')]);
}

/**
 * A workbook larger than the sample: a zip's index is at its end, so nothing of its sheets is in
 * the first bytes. init reads a bounded sample only: the sheet and every column are asked.
 */
function unread(
  detected: FeedInference['format'],
  sample: ExportSample,
  options: { kind?: RecordKind },
): FeedInference {
  const why = `the workbook is larger than the sample (${sample.bytes.length} bytes) and its index is at the zip's end: its sheets were not read`;
  return feedOfTable(
    {
      sample: { bytes: sample.bytes.length, rows: 0, complete: false, rowsCapped: false },
      format: detected,
      source: [['sheet', ask(`${why}: name the sheet, or leave it out for the first visible one`)]],
      notes: [
        `${why}; every column is asked. Run init on the sheet saved as CSV (or a smaller copy of the workbook) to have them inferred`,
      ],
    },
    inferTable({ header: [], rows: [], preamble: [], delimiter: '\t' }, options),
  );
}
