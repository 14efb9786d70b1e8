import type { SaxesTagPlain } from 'saxes';
import { FileStopError } from '../file-stop.js';
import {
  type ColumnRef,
  type Columns,
  columnsFrom,
  type MappedColumn,
  type SourceItem,
  type SourceRow,
} from '../row.js';
import type { ByteInput, FormatReading } from './source-format.js';
import { longerThanBytes } from './text-bytes.js';
import { type CellStyle, cellText, type RawCell } from './xlsx-cell.js';
import type { XlsxSource } from './xlsx-source.js';
import { readWorkbook } from './xlsx-workbook.js';
import { attribute, localName, unescapeXstring, xmlParser } from './xlsx-xml.js';
import { openZip, XlsxFileError } from './xlsx-zip.js';
import { MAX_XML_DEPTH, writeBounded } from './xml-bounds.js';

/** A row as the sheet holds it: its number and each cell's text (or why it has none) by column. */
interface SheetRow {
  readonly number: number;
  readonly cells: readonly (string | undefined)[];
  readonly problems: readonly string[];
}

/**
 * Streams one sheet of an xlsx workbook: the header row names the columns, each further row with
 * a value is a record, positioned at its row number as Excel shows it. The workbook's index parts
 * (sheet list, styles, shared strings) are read first; a file that is not an xlsx workbook or
 * lacks the feed's sheet stops before any row (XlsxFileError). The sheet itself is parsed as it is
 * inflated, a chunk of rows at a time.
 */
export function readXlsx(
  file: string,
  input: ByteInput,
  source: XlsxSource,
  mapped: readonly MappedColumn[] = [],
): FormatReading {
  let resolveColumns: (columns: Columns | undefined) => void = () => {};
  const columns = new Promise<Columns | undefined>((resolve) => {
    resolveColumns = resolve;
  });
  let sheet: string | undefined;
  async function* batches(): AsyncGenerator<readonly SourceItem[]> {
    try {
      yield* readSheet(
        file,
        input,
        source,
        mapped,
        (found) => resolveColumns(found),
        (name) => {
          sheet = name;
        },
      );
    } finally {
      resolveColumns(undefined);
    }
  }
  return { columns, batches: batches(), sheet: () => sheet };
}

async function* readSheet(
  file: string,
  input: ByteInput,
  source: XlsxSource,
  mapped: readonly MappedColumn[],
  onHeader: (columns: Columns) => void,
  onSheet: (name: string) => void,
): AsyncGenerator<readonly SourceItem[]> {
  const zip = await openZip(file, input);
  try {
    let style: CellStyle;
    let sheetPart: string;
    let sheetName: string;
    try {
      const workbook = await readWorkbook(file, zip, source.sheet, source);
      style = { ...workbook, decimalSeparator: source.decimalSeparator, dateFormat: source.dateFormat };
      sheetPart = workbook.sheetPart;
      sheetName = workbook.sheetName;
    } catch (error) {
      if (error instanceof FileStopError) throw error;
      throw new XlsxFileError(
        file,
        `not an xlsx workbook: its index parts cannot be read (${(error as Error).message})`,
      );
    }
    onSheet(sheetName);
    // The sheet is streamed: its size is bounded by the ratio alone, its tokens by maxCellBytes.
    const text = await zip.text(sheetPart, {
      maxBytes: Number.POSITIVE_INFINITY,
      maxRatio: source.maxCompressionRatio,
    });
    if (!text) throw new XlsxFileError(file, `the part of sheet ${JSON.stringify(sheetName)} is missing`);
    const rows = new RowAssembler(file, source, style, sheetName, mapped, onHeader);
    const parser = xmlParser(rows);
    const caps = { maxToken: source.maxCellBytes, maxDepth: MAX_XML_DEPTH };
    try {
      for await (const chunk of text) {
        writeBounded(parser, String(chunk), caps);
        const ready = rows.take();
        if (ready.length > 0) yield ready;
      }
      parser.close();
    } catch (error) {
      // Broken XML or deflate data inside the sheet, or a cap passed (xml-bounds.ts): the rows
      // before it stand; what follows is one problem at the row where reading stopped.
      const ready = rows.take();
      ready.push({
        kind: 'problem',
        problem: {
          file,
          line: rows.lastRow + 1,
          problem: `sheet ${JSON.stringify(sheetName)} cannot be read after row ${rows.lastRow}: ${(error as Error).message}`,
        },
      });
      yield ready;
      return;
    }
    const rest = rows.finish();
    if (rest.length > 0) yield rest;
  } finally {
    zip.close();
  }
}

/** Turns the sheet's parse events into rows, and rows into header and source items. */
class RowAssembler {
  lastRow = 0;
  private ready: SourceItem[] = [];
  private header: Columns | undefined;
  private readonly headerPattern: RegExp | undefined;
  private readonly skipPatterns: RegExp[];
  // The row and cell being parsed.
  private cells: (string | undefined)[] = [];
  private problems: string[] = [];
  private cell: (RawCell & { column: number }) | undefined;
  private lastColumn = 0;
  private inValue = false;
  private phonetic = 0;
  private parts: string[] = [];
  /** Characters of the cell's text so far: past maxCellBytes the rest is not kept. */
  private cellLength = 0;
  /** Columns (1-based) mapped to a text field, with the field: their number cells are IDs. */
  private textFields = new Map<number, string>();

  constructor(
    private readonly file: string,
    private readonly source: XlsxSource,
    private readonly style: CellStyle,
    private readonly sheetName: string,
    private readonly mapped: readonly MappedColumn[],
    private readonly onHeader: (columns: Columns) => void,
  ) {
    this.headerPattern = source.headerPattern === undefined ? undefined : new RegExp(source.headerPattern);
    this.skipPatterns = source.skipRowsMatching.map((p) => new RegExp(p));
  }

  take(): SourceItem[] {
    const items = this.ready;
    this.ready = [];
    return items;
  }

  /** At the end of the sheet: a header that never came is a problem, not an empty file. */
  finish(): SourceItem[] {
    if (!this.header) {
      const wanted =
        this.source.headerPattern !== undefined
          ? `no row matches headerPattern "${this.source.headerPattern}"`
          : this.source.headerRow !== undefined
            ? `row ${this.source.headerRow} (headerRow) is empty or missing`
            : 'every row is empty';
      this.ready.push({
        kind: 'problem',
        problem: {
          file: this.file,
          line: this.source.headerRow ?? 1,
          problem: `${wanted}; the header row was not found`,
        },
      });
    }
    return this.take();
  }

  readonly open = (tag: SaxesTagPlain): void => {
    switch (localName(tag)) {
      case 'row': {
        const r = Number(attribute(tag, 'r'));
        this.lastRow = Number.isInteger(r) && r > this.lastRow ? r - 1 : this.lastRow;
        this.cells = [];
        this.problems = [];
        this.lastColumn = 0;
        break;
      }
      case 'c': {
        const ref = attribute(tag, 'r');
        const column = ref === undefined ? this.lastColumn + 1 : columnNumber(ref);
        const s = attribute(tag, 's');
        this.cell = {
          column,
          type: attribute(tag, 't'),
          style: s === undefined ? undefined : Number(s),
          value: '',
        };
        this.lastColumn = column;
        this.parts = [];
        this.cellLength = 0;
        break;
      }
      case 'v':
        this.inValue = this.cell !== undefined;
        break;
      case 't':
        this.inValue = this.cell !== undefined && this.phonetic === 0;
        break;
      case 'rPh':
        this.phonetic++;
        break;
    }
  };

  readonly text = (value: string): void => {
    if (!this.inValue) return;
    this.cellLength += value.length;
    if (this.cellLength <= this.source.maxCellBytes) this.parts.push(value);
  };

  readonly close = (tag: SaxesTagPlain): void => {
    switch (localName(tag)) {
      case 'v':
      case 't':
        this.inValue = false;
        break;
      case 'rPh':
        this.phonetic--;
        break;
      case 'c':
        if (this.cell) this.endCell(this.cell);
        this.cell = undefined;
        break;
      case 'row':
        this.lastRow++;
        this.endRow({ number: this.lastRow, cells: this.cells, problems: this.problems });
        break;
    }
  };

  private endCell(cell: RawCell & { column: number }): void {
    if (this.cellLength > this.source.maxCellBytes) {
      this.problems.push(`${this.columnName(cell.column)} ${this.tooLong()}`);
      return;
    }
    const raw = this.parts.join('');
    const field = this.textFields.get(cell.column);
    const read = cellText(
      { ...cell, value: cell.type === 'inlineStr' ? unescapeXstring(raw) : raw },
      this.style,
      field !== undefined,
    );
    if (!read.ok && field !== undefined)
      this.problems.push(
        `cell ${columnLetters(cell.column)}${this.lastRow + 1} of sheet ${JSON.stringify(this.sheetName)} (${JSON.stringify(this.header?.names[cell.column - 1])}, mapping.${field}) ${read.problem}`,
      );
    else if (!read.ok) this.problems.push(`${this.columnName(cell.column)} ${read.problem}`);
    else if (longerThanBytes(read.text, this.source.maxCellBytes))
      this.problems.push(`${this.columnName(cell.column)} ${this.tooLong()}`);
    else this.cells[cell.column - 1] = read.text;
  }

  private tooLong(): string {
    return `holds more than maxCellBytes (${this.source.maxCellBytes} bytes of text); the row is rejected`;
  }

  /** "column C" or, once the header is known, `column C ("Betrag")`. */
  private columnName(column: number): string {
    const name = this.header?.names[column - 1];
    return `column ${columnLetters(column)}${name ? ` (${JSON.stringify(name)})` : ''}`;
  }

  private endRow(row: SheetRow): void {
    const blank = row.problems.length === 0 && row.cells.every((c) => c === undefined || c.trim() === '');
    if (!this.header) {
      if (this.source.headerRow !== undefined ? row.number !== this.source.headerRow : blank) return;
      const names = Array.from(row.cells, (c) => c ?? '');
      if (this.headerPattern && !this.headerPattern.test(names.join('\t'))) return;
      if (blank) return; // headerRow names an empty row: finish() says so
      this.header = columnsFrom(names);
      for (const { ref, field, type } of this.mapped) {
        const index = this.header.indexOf(ref);
        if (type === 'string' && index !== undefined && !this.textFields.has(index + 1))
          this.textFields.set(index + 1, field);
      }
      this.onHeader(this.header);
      return;
    }
    if (blank) return;
    if (row.problems.length > 0) {
      this.ready.push({
        kind: 'problem',
        problem: {
          file: this.file,
          line: row.number,
          problem: `row ${row.number}: ${row.problems.join('; ')}`,
        },
      });
      return;
    }
    const sheetRow = new XlsxRow(this.file, row.number, row.cells, this.header);
    if (this.skipPatterns.length > 0) {
      const text = sheetRow.text();
      if (this.skipPatterns.some((p) => p.test(text))) return;
    }
    this.ready.push({ kind: 'row', row: sheetRow });
  }
}

/** "C7" -> 3, "AA1" -> 27. */
function columnNumber(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const code = ch.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return n;
}

/** 3 -> "C", 27 -> "AA". */
function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

class XlsxRow implements SourceRow {
  constructor(
    readonly file: string,
    readonly line: number,
    private readonly cells: readonly (string | undefined)[],
    private readonly columns: Columns,
  ) {}

  cell(ref: ColumnRef): string | undefined {
    const i = this.columns.indexOf(ref);
    return i === undefined ? undefined : (this.cells[i] ?? '');
  }

  cellAt(index: number): string | undefined {
    return this.cells[index] ?? (index < this.columns.names.length ? '' : undefined);
  }

  /** The cells joined by tabs, as Excel copies a row: what skip patterns and derived IDs see. */
  text(): string {
    return Array.from(this.cells, (c) => c ?? '').join('\t');
  }
}
