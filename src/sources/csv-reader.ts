import { parse } from 'csv-parse';
import type { Source } from '../config/feed.js';
import { type Columns, columnsFrom, type SourceItem, type SourceRow } from './row.js';

export interface CsvReadResult {
  /** Resolves once the header row has been read (undefined when the file has none). */
  columns: Promise<Columns | undefined>;
  items: AsyncIterable<SourceItem>;
}

/**
 * Streams the data rows of a CSV export with their starting line. Handles a preamble before the
 * header (a fixed number of lines or up to the first line matching `headerPattern`), footer lines
 * (`skipFooterLines`, `skipRowsMatching`), quoted delimiters and line breaks, CR, LF and CRLF line
 * endings and empty lines. Memory stays flat: rows are yielded as they are parsed.
 */
export function readCsv(file: string, text: NodeJS.ReadableStream, source: Source): CsvReadResult {
  const parser = text.pipe(
    parse({
      delimiter: source.delimiter,
      quote: source.quote,
      relax_column_count: true,
      relax_quotes: false,
      skip_empty_lines: true,
      info: true,
      from_line: source.skipLines + 1,
    }),
  );
  let resolveColumns: (columns: Columns | undefined) => void = () => {};
  const columns = new Promise<Columns | undefined>((resolve) => {
    resolveColumns = resolve;
  });
  const headerPattern = source.headerPattern ? new RegExp(source.headerPattern) : undefined;
  const skipPatterns = source.skipRowsMatching.map((p) => new RegExp(p));
  const delimiter = source.delimiter;

  async function* items(): AsyncGenerator<SourceItem> {
    let header: Columns | undefined;
    let previousEnd = source.skipLines;
    let previousEmpty = 0;
    const footer: SourceItem[] = [];
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: string[];
        info: { lines: number; empty_lines: number };
      }>) {
        const line = previousEnd + 1 + (info.empty_lines - previousEmpty);
        previousEnd = info.lines;
        previousEmpty = info.empty_lines;
        if (!header) {
          if (headerPattern && !headerPattern.test(record.join(delimiter))) continue;
          header = columnsFrom(record);
          resolveColumns(header);
          continue;
        }
        if (record.every((cell) => cell.trim() === '')) continue;
        const row = csvRow(file, line, record, header, delimiter);
        if (skipPatterns.length && skipPatterns.some((p) => p.test(row.text()))) continue;
        footer.push({ kind: 'row', row });
        if (footer.length > source.skipFooterLines) yield footer.shift() as SourceItem;
      }
    } catch (error) {
      yield {
        kind: 'problem',
        problem: {
          file,
          line: previousEnd + 1,
          problem: `CSV cannot be read from here on: ${(error as Error).message}`,
        },
      };
    } finally {
      resolveColumns(header);
    }
  }
  return { columns, items: items() };
}

function csvRow(
  file: string,
  line: number,
  cells: readonly string[],
  columns: Columns,
  delimiter: string,
): SourceRow {
  return {
    file,
    line,
    cell: (ref) => {
      const i = columns.indexOf(ref);
      return i === undefined ? undefined : cells[i];
    },
    text: () => cells.join(delimiter),
  };
}
