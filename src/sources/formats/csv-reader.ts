import { type Options, Parser } from 'csv-parse';
import { FileStopError } from '../file-stop.js';
import type { MappedColumn } from '../row.js';
import {
  type ColumnRef,
  type Columns,
  cellOf,
  columnsFrom,
  type SourceItem,
  type SourceRow,
} from '../row.js';
import { DELIMITER_PROBE_ROWS, headerDelimiterProblem, rowsDelimiterProblem } from './csv-delimiter.js';
import type { CsvSource } from './csv-source.js';

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

/** The physical line ends of an export: all three count, also mixed in one file (banks do that). */
const LINE_ENDS = ['\r\n', '\n', '\r'];

/** The csv-parse options of a feed's source. */
export function csvParseOptions(source: CsvSource): Options {
  return {
    delimiter: source.delimiter,
    quote: source.quote,
    // Without it csv-parse takes the first line's ending as the only one: an LF line in a CRLF
    // file then merged the next record into the previous one's last cell.
    record_delimiter: LINE_ENDS,
    relax_column_count: true,
    // A quote inside an unquoted cell (`Monitor 27" Zoll`, `Konto "Giro"` in a preamble) is kept
    // as text: refusing it would make every later row of the file unreadable.
    relax_quotes: true,
    // Empty lines come out as records (one empty cell) so that every line is counted here; the
    // reader skips them as blank.
    skip_empty_lines: false,
    // A quote never closed would otherwise swallow the rest of the file and fail only at its end.
    max_record_size: source.maxRowBytes,
  };
}

/** csv-parse's parser core: records are pushed synchronously, and an error leaves the ones before it. */
interface CsvCore {
  parse(
    buffer: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): (Error & { code?: string }) | undefined;
}

/**
 * A fresh parser core. The stream wrapper of csv-parse drops the records it had buffered when it
 * fails and cannot go on after an error; its core (`api`, what the wrapper drives) can be fed
 * directly and replaced by a new one to resume at the line after a broken row.
 */
function newCore(options: Options): CsvCore {
  return (new Parser(options) as unknown as { api: CsvCore }).api;
}

/**
 * Streams the data rows of a CSV export with their starting line. Handles a preamble before the
 * header (a fixed number of lines or up to the first line matching `headerPattern`), footer lines
 * (`skipFooterLines`, `skipRowsMatching`), quoted delimiters and line breaks, CR, LF and CRLF line
 * endings (mixed too) and empty lines. Memory stays flat: rows are yielded as they are parsed.
 *
 * Every physical line is accounted for: a row, a problem with its line, or a documented skip
 * (preamble, header, blank, footer). A row csv-parse cannot read (a quote never closed, a row
 * longer than `maxRowBytes`) is one problem at the line where it starts; reading resumes at the
 * next physical line. A row whose field count does not fit the header is a problem naming them.
 */
export function readCsv(file: string, text: NodeJS.ReadableStream, source: CsvSource): CsvReadResult {
  const { columns, batches } = readCsvBatches(file, text, source);
  async function* items(): AsyncGenerator<SourceItem> {
    for await (const batch of batches) yield* batch;
  }
  return { columns, items: items() };
}

/** A piece of the text fed to the current parser core, kept until its rows are all complete. */
interface Fed {
  text: string;
  /** Line of its first character. */
  start: number;
}

/**
 * readCsv a batch at a time: what csv-parse made of one chunk of the file comes out as one array,
 * so a file of a million rows costs a few thousand asynchronous steps rather than a million.
 */
export function readCsvBatches(
  file: string,
  text: NodeJS.ReadableStream,
  source: CsvSource,
  mapped: readonly MappedColumn[] = [],
): CsvBatchResult {
  const options = csvParseOptions(source);
  let resolveColumns: (columns: Columns | undefined) => void = () => {};
  const columns = new Promise<Columns | undefined>((resolve) => {
    resolveColumns = resolve;
  });
  const headerPattern = source.headerPattern ? new RegExp(source.headerPattern) : undefined;
  const skipPatterns = source.skipRowsMatching.map((p) => new RegExp(p));
  const delimiter = source.delimiter;

  let header: Columns | undefined;
  /** Line where the next record starts. */
  let nextLine = source.skipLines + 1;
  /** Line of the next character fed to the core (or discarded). */
  let feedLine = 1;
  /** Text before the start of this line is not parsed (the preamble, the rest of a broken row). */
  let discardUntil = source.skipLines + 1;
  let core = newCore(options);
  /** What the current core was fed since its record in progress began (bounded by maxRowBytes). */
  let retained: Fed[] = [];
  const footer: CsvRow[] = [];
  let ready: SourceItem[] = [];
  /**
   * A delimiter the file does not use (csv-delimiter.ts): found at the header, or once the first
   * data rows are in (they are held until then, so none is handed on from a file that stops).
   */
  let stop: FileStopError | undefined;
  let probe: CsvRow[] | undefined = [];

  const hand = (row: CsvRow) => {
    const shape = shapeProblem(row.cells, row.columns);
    ready.push(
      shape ? { kind: 'problem', problem: { file, line: row.line, problem: shape } } : { kind: 'row', row },
    );
  };
  /** Decides on the rows probed so far and hands them on (unless the file stops). */
  const endProbe = () => {
    if (!probe) return;
    const rows = probe;
    probe = undefined;
    if (header) stop ??= rowsDelimiterProblem(file, header.names, rows, delimiter);
    if (!stop) for (const row of rows) hand(row);
  };
  const release = (row: CsvRow) => {
    if (!probe) return hand(row);
    probe.push(row);
    if (probe.length >= DELIMITER_PROBE_ROWS) endProbe();
  };

  const push = (record: string[]) => {
    const line = nextLine;
    // Counted from the cells: a line break inside a quoted cell belongs to this record.
    nextLine = line + 1 + lineBreaksIn(record);
    if (isBlank(record)) return;
    if (!header) {
      if (headerPattern && !headerPattern.test(record.join(delimiter))) return;
      header = columnsFrom(record);
      stop = headerDelimiterProblem(file, record, delimiter, mapped);
      resolveColumns(header);
      return;
    }
    const row = new CsvRow(file, line, record, header, delimiter);
    if (skipPatterns.length > 0) {
      const text = row.text();
      if (skipPatterns.some((p) => p.test(text))) return;
    }
    footer.push(row);
    if (footer.length > source.skipFooterLines) release(footer.shift() as CsvRow);
  };

  /** Parses a piece of text (undefined: the end of the file), resuming after each broken row. */
  const parse = (piece: string | undefined) => {
    let input = piece;
    const end = piece === undefined;
    for (;;) {
      if (input !== undefined) {
        retained.push({ text: input, start: feedLine });
        feedLine += countBreaks(input);
      }
      const error = core.parse(input === undefined ? undefined : Buffer.from(input), end, push, noop);
      if (!error) {
        // Text wholly before the record in progress can no longer be needed for a resume.
        while (retained.length > 1 && (retained[1] as Fed).start < nextLine) retained.shift();
        return;
      }
      const broken = nextLine;
      // Rows held back as possible footer lines come before the broken one: they are data.
      for (const row of footer.splice(0)) release(row);
      endProbe();
      // Before a header found by headerPattern, a broken line is preamble (a bank's free text).
      if (header || !headerPattern)
        ready.push({
          kind: 'problem',
          problem: { file, line: broken, problem: brokenRow(error, source, broken) },
        });
      nextLine = broken + 1;
      core = newCore(options);
      const rest = textFromLine(retained, nextLine);
      retained = [];
      if (rest === undefined) {
        // The broken row goes on beyond what was read: what follows is skipped up to its next line.
        discardUntil = nextLine;
        return;
      }
      feedLine = nextLine;
      input = rest;
    }
  };

  /** Feeds a piece of the file, leaving out what lies before `discardUntil`. */
  const accept = (piece: string) => {
    if (feedLine >= discardUntil) return parse(piece);
    const offset = offsetOfLine(piece, feedLine, discardUntil);
    if (offset === undefined) {
      feedLine += countBreaks(piece);
      return;
    }
    feedLine = discardUntil;
    if (offset < piece.length) parse(piece.slice(offset));
  };

  const take = () => {
    const full = ready;
    ready = [];
    return full;
  };

  async function* batches(): AsyncGenerator<SourceItem[]> {
    // A CR at the end of a piece may be the first half of a CRLF: it waits for the next piece.
    let heldCr = '';
    try {
      for await (const chunk of text) {
        let piece = heldCr + (typeof chunk === 'string' ? chunk : String(chunk));
        heldCr = '';
        if (piece.endsWith('\r')) {
          heldCr = '\r';
          piece = piece.slice(0, -1);
        }
        if (piece !== '') accept(piece);
        if (stop) throw stop;
        if (ready.length > 0) yield take();
      }
      if (heldCr !== '') accept(heldCr);
      if (feedLine >= discardUntil) parse(undefined);
      endProbe();
      if (stop) throw stop;
      if (ready.length > 0) yield take();
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
      if (error instanceof FileStopError) throw error;
      // Reading the file failed (not its content): the rows held back as possible footer lines
      // came before the break, so they are data.
      for (const row of footer.splice(0)) release(row);
      if (probe) for (const row of probe.splice(0)) hand(row);
      yield [
        ...take(),
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

const noop = () => {};

function brokenRow(error: Error & { code?: string }, source: CsvSource, line: number): string {
  const resume = `reading goes on at line ${line + 1}`;
  if (error.code === 'CSV_QUOTE_NOT_CLOSED')
    return `a quote (${source.quote}) opened in the row starting on this line is never closed; the row is rejected, ${resume}`;
  if (error.code === 'CSV_MAX_RECORD_SIZE')
    return `the row starting on this line is longer than maxRowBytes (${source.maxRowBytes} bytes): an oversized cell or a quote (${source.quote}) never closed; the row is rejected, ${resume}`;
  return `the row starting on this line cannot be read (${error.message}); ${resume}`;
}

/**
 * Why a row's field count does not fit the header, or undefined. Extra fields that are all empty
 * are tolerated: a trailing delimiter (`a;b;c;`) is common in bank exports and carries nothing.
 */
function shapeProblem(cells: readonly string[], header: Columns): string | undefined {
  const expected = header.names.length;
  if (cells.length === expected) return undefined;
  const count = `row has ${cells.length} field${cells.length === 1 ? '' : 's'}, the header has ${expected}`;
  if (cells.length < expected) {
    const missing = header.names.slice(cells.length).map((n) => JSON.stringify(n));
    return `${count}: missing ${missing.join(', ')}`;
  }
  const extra = cells
    .slice(expected)
    .flatMap((c, i) => (c.trim() === '' ? [] : [`field ${expected + i + 1} ${JSON.stringify(c)}`]));
  return extra.length === 0 ? undefined : `${count}: extra ${extra.join(', ')}`;
}

/** Physical line breaks in a text: CRLF, CR and LF each count once. */
function countBreaks(text: string): number {
  let breaks = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) breaks++;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1))
    if (text.charCodeAt(i + 1) !== 10) breaks++;
  return breaks;
}

/** Offset in `text` (whose first character is on line `start`) where line `line` begins, if it does. */
function offsetOfLine(text: string, start: number, line: number): number | undefined {
  if (start >= line) return 0;
  let current = start;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      current++;
      if (current === line) return i + 1;
    }
  }
  return undefined;
}

/** The retained text from the start of `line` on, or undefined when that line was not read yet. */
function textFromLine(retained: readonly Fed[], line: number): string | undefined {
  for (let i = 0; i < retained.length; i++) {
    const fed = retained[i] as Fed;
    const offset = offsetOfLine(fed.text, fed.start, line);
    if (offset === undefined) continue;
    return (
      fed.text.slice(offset) +
      retained
        .slice(i + 1)
        .map((f) => f.text)
        .join('')
    );
  }
  return undefined;
}

/** Line breaks inside the (quoted) cells of a record: CRLF, CR and LF each count once. */
export function lineBreaksIn(record: readonly string[]): number {
  let breaks = 0;
  for (const cell of record) {
    if (cell.includes('\n') || cell.includes('\r')) breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
  }
  return breaks;
}

/** True when every cell is empty or whitespace. */
export function isBlank(record: readonly string[]): boolean {
  for (const cell of record) if (cell.trim() !== '') return false;
  return true;
}

class CsvRow implements SourceRow {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly cells: readonly string[],
    readonly columns: Columns,
    private readonly delimiter: string,
  ) {}

  cell(ref: ColumnRef): string | undefined {
    return cellOf(this.cells, this.columns, ref);
  }

  cellAt(index: number): string | undefined {
    return this.cells[index];
  }

  text(): string {
    return this.cells.join(this.delimiter);
  }
}
