import { type Options, parse } from 'csv-parse';
import type { Source } from '../config/feed.js';
import { type Columns, columnsFrom, type SourceItem, type SourceRow } from './row.js';

export interface CsvReadResult {
  /** Resolves once the header row has been read (undefined when the file has none). */
  columns: Promise<Columns | undefined>;
  items: AsyncIterable<SourceItem>;
}

/** The csv-parse options of a feed's source (also what the sync benchmark parses with). */
export function csvParseOptions(source: Source): Options {
  return {
    delimiter: source.delimiter,
    quote: source.quote,
    relax_column_count: true,
    // A quote inside an unquoted cell (`Monitor 27" Zoll`, `Konto "Giro"` in a preamble) is kept
    // as text: refusing it would make every later row of the file unreadable.
    relax_quotes: true,
    skip_empty_lines: true,
    info: true,
    from_line: source.skipLines + 1,
  };
}

/**
 * Streams the data rows of a CSV export with their starting line. Handles a preamble before the
 * header (a fixed number of lines or up to the first line matching `headerPattern`), footer lines
 * (`skipFooterLines`, `skipRowsMatching`), quoted delimiters and line breaks, CR, LF and CRLF line
 * endings and empty lines. Memory stays flat: rows are yielded as they are parsed.
 */
export function readCsv(file: string, text: NodeJS.ReadableStream, source: Source): CsvReadResult {
  const parser = text.pipe(parse(csvParseOptions(source)));
  let resolveColumns: (columns: Columns | undefined) => void = () => {};
  const columns = new Promise<Columns | undefined>((resolve) => {
    resolveColumns = resolve;
  });
  const headerPattern = source.headerPattern ? new RegExp(source.headerPattern) : undefined;
  const skipPatterns = source.skipRowsMatching.map((p) => new RegExp(p));
  const delimiter = source.delimiter;

  async function* items(): AsyncGenerator<SourceItem> {
    let header: Columns | undefined;
    let nextLine = source.skipLines + 1;
    let previousEmpty = 0;
    const footer: SourceItem[] = [];
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: string[];
        info: { empty_lines: number };
      }>) {
        const line = nextLine + (info.empty_lines - previousEmpty);
        previousEmpty = info.empty_lines;
        // Counted from the cells rather than csv-parse's info.lines, which counts a CRLF inside a
        // quoted cell as two lines and so shifted every later row of a CRLF file.
        nextLine = line + 1 + lineBreaksIn(record);
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
      if (headerPattern && !header && nextLine > source.skipLines + 1) {
        // Otherwise an export whose header row changed would pass as an empty file.
        yield {
          kind: 'problem',
          problem: {
            file,
            line: source.skipLines + 1,
            problem: `no line up to line ${nextLine - 1} matches headerPattern "${source.headerPattern}"; the header row was not found`,
          },
        };
      }
    } catch (error) {
      // The rows held back as possible footer lines came before the break, so they are data.
      yield* footer;
      yield {
        kind: 'problem',
        problem: {
          file,
          line: nextLine,
          problem: `CSV cannot be read from here on: ${(error as Error).message}`,
        },
      };
    } finally {
      resolveColumns(header);
    }
  }
  return { columns, items: items() };
}

/** Line breaks inside the (quoted) cells of a record: CRLF, CR and LF each count once. */
function lineBreaksIn(record: readonly string[]): number {
  let breaks = 0;
  for (const cell of record) {
    if (cell.includes('\n') || cell.includes('\r')) breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return breaks;
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
