import type { RecordKind } from '../kinds/registry.js';
import type { ByteInput } from '../sources/formats/source-format.js';
import { readXlsx } from '../sources/formats/xlsx-reader.js';
import { XlsxSource } from '../sources/formats/xlsx-source.js';
import type { SourceRow } from '../sources/row.js';
import type { FeedInference, FeedInferenceResult } from './feed-shape.js';
import { inferTable } from './infer-table.js';
import { guess, sure } from './inferred.js';
import type { SampledExport } from './sample.js';
import { sampleRows } from './sample-rows.js';
import { findRowsTable } from './table.js';
import { feedOfTable } from './table-feed.js';

/**
 * An Excel workbook, read through the xlsx reader (its zip and size caps) from the export itself:
 * a zip's index is at its end, so the reader's ranged reads fetch the index, the workbook's parts
 * and the first sheet's beginning, whatever the file's size, and reading stops after SAMPLE_ROWS
 * rows (sampleRows). The first sheet's header and rows are inferred as a table's. Number and date
 * cells reach the mapper written in the source's decimalSeparator and dateFormat (xlsx-cell.ts),
 * so those settings are what the text cells show.
 */
export async function inferXlsx(
  detected: FeedInference['format'],
  sample: SampledExport,
  options: { kind?: RecordKind },
): Promise<FeedInferenceResult> {
  let bytesRead = 0;
  const input: ByteInput = {
    path: sample.file.path,
    location: sample.file.location,
    countRead: (bytes) => {
      bytesRead += bytes;
    },
  };
  const reading = readXlsx(sample.file.name, input, XlsxSource.parse({ format: 'xlsx', path: input.path }));
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
        // What was looked at is what the reader read (its ranges), complete when it got to the
        // sheet's end.
        sample: {
          bytes: bytesRead,
          rows: table.records,
          complete: !read.capped && read.stopped === undefined,
          rowsCapped: read.capped,
        },
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
