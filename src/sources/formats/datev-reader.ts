import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { FileStopError } from '../file-stop.js';
import { type ColumnRef, type Columns, columnsFrom, type SourceItem, type SourceRow } from '../row.js';
import { failed, type Parsed, parsed } from '../values/result.js';
import { readCsvBatches } from './csv-reader.js';
import { CsvSource } from './csv-source.js';
import { completeDate, type DatevMeta, readMetaHeader } from './datev-meta.js';
import type { DatevSource } from './datev-source.js';
import type { FormatReading } from './source-format.js';

/**
 * The cells the reader adds after the file's own columns (what a feed's mapping may name besides
 * them): the amount signed by its S/H flag, the document date completed to an ISO date, and the
 * booking's currency (`WKZ Umsatz`, else the batch's).
 */
export const DATEV_CELLS = ['signedAmount', 'documentDate', 'currency'] as const;

const ADDED_AT = new Map<string, number>(DATEV_CELLS.map((name, i) => [name, i]));

const AMOUNT = 'Umsatz (ohne Soll/Haben-Kz)';
const SIGN = 'Soll/Haben-Kennzeichen';
const DATE = 'Belegdatum';
const CURRENCY = 'WKZ Umsatz';
/** The columns without which a line is no booking. */
const REQUIRED = [AMOUNT, SIGN, DATE] as const;

/** Unsigned, decimal comma, at most ten digits and two decimals, no grouping (1234567890,12). */
const UNSIGNED_AMOUNT = /^\d{1,10}(,\d{1,2})?$/;
/** Line 1 is a few hundred characters: a longer one is no meta header (a binary file) and is not kept. */
const MAX_META_CHARS = 64 * 1024;

/** The stop of a file that is no DATEV booking batch: nothing of it is sent (exit 2). */
const stop = (file: string, message: string) =>
  new FileStopError('SOURCE_LAYOUT', file, `${file}: ${message}`);

/**
 * Streams the bookings of a DATEV EXTF/DTVF "Buchungsstapel" export: line 1 the meta header
 * (checked: datev-meta.ts), line 2 the column names, each further line a booking, read by the CSV
 * reader (`;`, `"`). A file that is no booking batch (another category, a meta header missing or
 * garbled, a column named in REQUIRED missing from line 2) stops with the reason; a booking whose
 * amount, S/H flag or document date does not read is a problem at its line, and the others go on.
 */
export function readDatev(file: string, text: NodeJS.ReadableStream, source: DatevSource): FormatReading {
  const tap = firstLineOf(text);
  const csv = readCsvBatches(
    file,
    tap.text,
    CsvSource.parse({ format: 'csv', path: source.path, delimiter: ';', quote: '"', skipLines: 1 }),
  );
  const columns = csv.columns.then((found) => found && columnsFrom([...found.names, ...DATEV_CELLS]));
  return { columns, batches: batchesOf(file, csv, tap.firstLine, columns) };
}

async function* batchesOf(
  file: string,
  csv: ReturnType<typeof readCsvBatches>,
  firstLine: () => string,
  columns: Promise<Columns | undefined>,
): AsyncGenerator<SourceItem[]> {
  let meta: DatevMeta | undefined;
  let layout: Parsed<CellIndex> | undefined;
  let stopped: FileStopError | undefined;
  for await (const batch of csv.batches) {
    // Read to the end all the same: the file's fingerprint is taken as its bytes pass.
    if (stopped) continue;
    if (!meta) {
      const header = metaOf(firstLine());
      if (!header.ok) {
        stopped = stop(file, `line 1: ${header.reason}`);
        continue;
      }
      meta = header.value;
    }
    const out: SourceItem[] = [];
    for (const item of batch) {
      if (item.kind === 'problem') {
        out.push(item);
        continue;
      }
      // A row comes only after line 2 was read: the columns are known.
      layout ??= layoutOf(await columns);
      if (!layout.ok) {
        stopped = stop(file, layout.reason);
        break;
      }
      out.push(booking(item.row, layout.value, meta));
    }
    if (!stopped && out.length > 0) yield out;
  }
  if (!stopped && !meta) {
    // No batch at all: an empty file, or a meta header alone.
    const header = metaOf(firstLine());
    if (!header.ok) throw stop(file, `line 1: ${header.reason}`);
    if (!(await columns)) throw stop(file, 'line 2: the column names are missing after the meta header');
    // A batch without bookings still has to be a Buchungsstapel.
    const found = layoutOf(await columns);
    if (!found.ok) throw stop(file, found.reason);
  }
  if (stopped) throw stopped;
}

function metaOf(line: string): Parsed<DatevMeta> {
  if (line.trim() === '') return failed('the meta header is missing: the line is empty');
  let cells: string[] | undefined;
  try {
    [cells] = parse(line, { delimiter: ';', quote: '"', relax_quotes: true, relax_column_count: true });
  } catch (error) {
    return failed(`the meta header cannot be read as \`;\`-separated fields (${(error as Error).message})`);
  }
  return readMetaHeader(cells ?? []);
}

/** Where the cells a booking needs are, resolved once per file; `own` counts the file's columns. */
interface CellIndex {
  amount: number;
  sign: number;
  date: number;
  currency: number | undefined;
  own: number;
}

function layoutOf(columns: Columns | undefined): Parsed<CellIndex> {
  const missing = REQUIRED.filter((name) => columns?.indexOf(name) === undefined);
  if (!columns || missing.length > 0)
    return failed(
      `line 2 (the column names) has no ${missing.map((n) => JSON.stringify(n)).join(', ')}: expected the columns of a Buchungsstapel`,
    );
  // Found above: REQUIRED are all there.
  const at = (name: string) => columns.indexOf(name) ?? -1;
  return parsed({
    amount: at(AMOUNT),
    sign: at(SIGN),
    date: at(DATE),
    currency: columns.indexOf(CURRENCY),
    own: columns.names.length - DATEV_CELLS.length,
  });
}

/** A booking with its added cells, or the problem of its line naming each field that does not read. */
function booking(row: SourceRow, index: CellIndex, meta: DatevMeta): SourceItem {
  const cell = (i: number) => (row.cellAt?.(i) ?? row.cell(i + 1) ?? '').trim();
  const wrong: string[] = [];
  const amount = cell(index.amount);
  // DATEV refuses a zero amount: the flag gives the direction, the amount is always positive.
  if (!UNSIGNED_AMOUNT.test(amount) || !/[1-9]/.test(amount))
    wrong.push(
      `field "${AMOUNT}" is ${JSON.stringify(amount)}: expected an unsigned amount above zero with a decimal comma, e.g. 1234,56`,
    );
  const sign = cell(index.sign);
  if (sign !== 'S' && sign !== 'H')
    wrong.push(
      `field "${SIGN}" is ${JSON.stringify(sign)}: expected "S" (Soll, debit) or "H" (Haben, credit)`,
    );
  const date = completeDate(cell(index.date), meta);
  if (!date.ok) wrong.push(`field "${DATE}" is ${JSON.stringify(cell(index.date))}: ${date.reason}`);
  if (!date.ok || wrong.length > 0)
    return { kind: 'problem', problem: { file: row.file, line: row.line, problem: wrong.join('; ') } };
  const currency = index.currency === undefined ? '' : cell(index.currency);
  const added = [
    sign === 'H' ? `-${amount}` : amount,
    date.value,
    currency === '' ? (meta.currency ?? '') : currency,
  ];
  return { kind: 'row', row: new DatevRow(row, index.own, added) };
}

/** A booking line: its own cells as the CSV reader read them, then DATEV_CELLS. */
class DatevRow implements SourceRow {
  readonly file: string;
  readonly line: number;
  constructor(
    private readonly row: SourceRow,
    private readonly own: number,
    private readonly added: readonly string[],
  ) {
    this.file = row.file;
    this.line = row.line;
  }

  cell(ref: ColumnRef): string | undefined {
    if (typeof ref === 'number') return ref >= 1 ? this.cellAt(ref - 1) : undefined;
    const added = ADDED_AT.get(ref);
    return added === undefined ? this.row.cell(ref) : this.added[added];
  }

  cellAt(index: number): string | undefined {
    return index < this.own
      ? (this.row.cellAt?.(index) ?? this.row.cell(index + 1))
      : this.added[index - this.own];
  }

  text(): string {
    return this.row.text();
  }
}

/**
 * The text as it comes, and its first line (up to its line break) once that has passed: the CSV
 * reader skips line 1, the meta header, and reads the rest with the right line numbers.
 */
function firstLineOf(text: NodeJS.ReadableStream): { text: NodeJS.ReadableStream; firstLine: () => string } {
  let head = '';
  let complete = false;
  async function* pass(): AsyncGenerator<string> {
    for await (const chunk of text) {
      const piece = typeof chunk === 'string' ? chunk : String(chunk);
      if (!complete) {
        const end = piece.search(/[\r\n]/);
        head += end < 0 ? piece : piece.slice(0, end);
        complete = end >= 0 || head.length > MAX_META_CHARS;
        if (head.length > MAX_META_CHARS) head = head.slice(0, MAX_META_CHARS);
      }
      yield piece;
    }
  }
  return { text: Readable.from(pass()), firstLine: () => head };
}
