import type { Readable } from 'node:stream';
import { type Options, parse } from 'csv-parse';
import type { Source } from '../config/feed.js';
import { type ColumnRef, type Columns, columnsFrom, type SourceItem, type SourceRow } from './row.js';

export interface CsvReadResult {
  /** Resolves once the header row has been read (undefined when the file has none). */
  columns: Promise<Columns | undefined>;
  items: AsyncIterable<SourceItem>;
}

export interface CsvBatchResult {
  /** Resolves once the header row has been read (undefined when the file has none). */
  columns: Promise<Columns | undefined>;
  /** The items in file order, as many at a time as csv-parse has ready (never an empty batch). */
  batches: AsyncIterable<SourceItem[]>;
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
  const { columns, batches } = readCsvBatches(file, text, source);
  async function* items(): AsyncGenerator<SourceItem> {
    for await (const batch of batches) yield* batch;
  }
  return { columns, items: items() };
}

/**
 * readCsv a batch at a time: what csv-parse made of one chunk of the file comes out as one array,
 * so a file of a million rows costs a few thousand asynchronous steps rather than a million.
 */
export function readCsvBatches(file: string, text: NodeJS.ReadableStream, source: Source): CsvBatchResult {
  const parser = text.pipe(parse(csvParseOptions(source)));
  text.on('error', (error) => parser.destroy(error)); // pipe() does not pass a read or decode error on
  let resolveColumns: (columns: Columns | undefined) => void = () => {};
  const columns = new Promise<Columns | undefined>((resolve) => {
    resolveColumns = resolve;
  });
  const headerPattern = source.headerPattern ? new RegExp(source.headerPattern) : undefined;
  const skipPatterns = source.skipRowsMatching.map((p) => new RegExp(p));
  const delimiter = source.delimiter;

  async function* batches(): AsyncGenerator<SourceItem[]> {
    let header: Columns | undefined;
    let nextLine = source.skipLines + 1;
    let previousEmpty = 0;
    const footer: SourceItem[] = [];
    let ready: SourceItem[] = [];
    try {
      for await (const parsed of readyRecords(parser)) {
        for (const { record, info } of parsed) {
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
          if (isBlank(record)) continue;
          const row = new CsvRow(file, line, record, header, delimiter);
          if (skipPatterns.length > 0) {
            const text = row.text();
            if (skipPatterns.some((p) => p.test(text))) continue;
          }
          footer.push({ kind: 'row', row });
          if (footer.length > source.skipFooterLines) ready.push(footer.shift() as SourceItem);
        }
        if (ready.length > 0) {
          const full = ready;
          ready = [];
          yield full;
        }
      }
      if (headerPattern && !header && nextLine > source.skipLines + 1) {
        // Otherwise an export whose header row changed would pass as an empty file.
        yield [
          {
            kind: 'problem',
            problem: {
              file,
              line: source.skipLines + 1,
              problem: `no line up to line ${nextLine - 1} matches headerPattern "${source.headerPattern}"; the header row was not found`,
            },
          },
        ];
      }
    } catch (error) {
      // The rows held back as possible footer lines came before the break, so they are data.
      yield [
        ...ready,
        ...footer,
        {
          kind: 'problem',
          problem: {
            file,
            line: nextLine,
            problem: `CSV cannot be read from here on: ${(error as Error).message}`,
          },
        },
      ];
    } finally {
      resolveColumns(header);
    }
  }
  return { columns, batches: batches() };
}

interface ParsedRecord {
  record: string[];
  info: { empty_lines: number };
}

/**
 * The parser's records as they become ready: each wait for more is followed by taking everything
 * csv-parse has buffered (it parses a whole chunk of the file at once). Errors and the end of the
 * stream come through the stream's own async iterator, which also destroys the parser when the
 * reader stops early.
 */
async function* readyRecords(parser: Readable): AsyncGenerator<ParsedRecord[]> {
  for await (const first of parser) {
    const parsed: ParsedRecord[] = [first as ParsedRecord];
    for (let next = parser.read(); next !== null; next = parser.read()) parsed.push(next as ParsedRecord);
    yield parsed;
  }
}

/** Line breaks inside the (quoted) cells of a record: CRLF, CR and LF each count once. */
function lineBreaksIn(record: readonly string[]): number {
  let breaks = 0;
  for (const cell of record) {
    if (cell.includes('\n') || cell.includes('\r')) breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return breaks;
}

/** True when every cell is empty or whitespace. */
function isBlank(record: readonly string[]): boolean {
  for (const cell of record) if (cell.trim() !== '') return false;
  return true;
}

class CsvRow implements SourceRow {
  constructor(
    readonly file: string,
    readonly line: number,
    private readonly cells: readonly string[],
    private readonly columns: Columns,
    private readonly delimiter: string,
  ) {}

  cell(ref: ColumnRef): string | undefined {
    const i = this.columns.indexOf(ref);
    return i === undefined ? undefined : this.cells[i];
  }

  cellAt(index: number): string | undefined {
    return this.cells[index];
  }

  text(): string {
    return this.cells.join(this.delimiter);
  }
}
