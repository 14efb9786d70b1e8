import { Readable } from 'node:stream';
import { KINDS } from '../kinds/registry.js';
import { decodeStream, READ_CHUNK_BYTES } from './decode.js';
import type { ByteWatch } from './encoding-inspect.js';
import type { SourceFeed } from './feed-view.js';
import { cellOf } from './field-plan.js';
import { FileStopError } from './file-stop.js';
import { hasFixedDates, rawTextOf, readSource, readSourceBytes } from './formats/registry.js';
import type { FormatReading } from './formats/source-format.js';
import { type ExportFile, readChunks } from './locations/export-file.js';
import { mappedColumns } from './mapped-columns.js';
import type { ColumnRef, Columns, SourceRow } from './row.js';
import type { FileEncoding } from './text-encoding.js';
import { contradicts, type SwappedDates, swappedDates } from './values/date-swap.js';

/**
 * A declared date format the file contradicts stops the file before its first record is handed on
 * (exit 2, SOURCE_LAYOUT): under `MM.dd.yyyy` a `dd.MM.yyyy` export would otherwise have every date
 * with a day of 12 or less written with day and month swapped, and only the others rejected. The
 * evidence may come last (an export sorted by date: a thousand rows of early-month dates, then the
 * 13th), so it must be in before the first write. Two steps, so a consistent file pays almost
 * nothing:
 *
 * 1. A byte watch on the encoding pass (which reads every byte before the first record anyway, so
 *    no read of its own, also for remote files) looks for any text in the shape of the declared
 *    format with 13 to 31 where the month stands. None (the usual case): no cell can contradict.
 * 2. Only when there is one, a pass over the file with the format's reader looks at the mapped
 *    date columns alone (the candidate may be free text, "Rechnung vom 13.01.2026") and stops the
 *    file at the second contradicting value (or the end), naming column, formats and lines.
 *
 * UTF-16 files skip step 1 (their bytes are no ASCII text) and always take step 2. A bytes format
 * (xlsx) gets step 1 from its stored text (the workbook's XML parts inflated, not parsed: its text
 * cells are shared or inline strings there; its date cells are serial numbers, which cannot
 * match), unless a text cell is rich text (`<r>` runs may split a date: step 2 then).
 */
export interface DateFormatCheck {
  /** Passed to the encoding pass (openCheckedText). */
  watch: ByteWatch;
  /** After the encoding pass: the stop for a contradicted format, or undefined. */
  check(file: ExportFile, encoding: FileEncoding): Promise<FileStopError | undefined>;
  /**
   * A bytes format (xlsx): no encoding pass to watch, so always step 2, a read of the workbook
   * of its own; its text cells may hold dates in any order (its date cells are written by the
   * reader in the feed's format and cannot contradict it).
   */
  checkBytes(file: ExportFile): Promise<FileStopError | undefined>;
}

/** A mapped date field and the cells it reads. */
interface DateColumn {
  field: string;
  refs: readonly ColumnRef[];
  separator: string;
}

/** Bytes kept from one chunk to the next, so a date split by a chunk boundary is still seen whole. */
const TAIL_CHARS = 32;

/** What CandidateWatch looks for in the text: a RegExp, or a search of its own. */
interface TextPattern {
  test(text: string): boolean;
}

/** Step 1: whether any text in the shape of a contradiction passed by. */
class CandidateWatch implements ByteWatch {
  found = false;
  private complete = false;
  private tail = '';
  /** Any of `patterns` seen is a candidate. */
  constructor(private readonly patterns: readonly TextPattern[]) {}

  push(chunk: Buffer): void {
    // Latin-1 keeps every byte as one character: in UTF-8 and the single-byte encodings, digits
    // and separators are the ASCII bytes themselves, and no multi-byte sequence contains one.
    this.pushText(chunk.toString('latin1'));
  }

  pushText(chunk: string): void {
    if (this.found) return;
    const text = this.tail + chunk;
    if (this.patterns.some((pattern) => pattern.test(text))) this.found = true;
    else this.tail = text.slice(-TAIL_CHARS);
  }

  end(): void {
    this.complete = true;
  }

  /** Every byte was seen and none could contradict the declared format. */
  clear(): boolean {
    return this.complete && !this.found;
  }
}

/** The check for a feed whose mapping reads dates from columns; undefined when it reads none. */
export function dateFormatCheck(feed: SourceFeed): DateFormatCheck | undefined {
  if (hasFixedDates(feed.source.format)) return undefined;
  const columns = dateColumns(feed);
  if (columns.length === 0) return undefined;
  const dates = swappedDates(feed.source.dateFormat);
  const watch = new CandidateWatch([dates.candidates]);
  return {
    watch,
    check: async (file, encoding) => {
      const ascii = encoding.name !== 'utf-16le' && encoding.name !== 'utf-16be';
      if (ascii && watch.clear()) return undefined;
      const bytes = Readable.from(readChunks(file, { start: 0 }, READ_CHUNK_BYTES), { objectMode: false });
      const text = bytes.pipe(decodeStream(encoding.name));
      bytes.on('error', (error) => text.destroy(error));
      const reading = readSource(feed.source.format, feed.source, file.name, text, mappedColumns(feed));
      return contradiction(feed, file.name, reading, columns, dates).finally(() => {
        text.destroy();
        bytes.destroy();
      });
    },
    checkBytes: async (file) => {
      const input = { path: file.path, location: file.location, countRead: () => {} };
      if (await rawTextClear(rawTextOf(feed.source.format, feed.source, file.name, input), dates.candidates))
        return undefined;
      const reading = readSourceBytes(feed.source.format, feed.source, file.name, input, mappedColumns(feed));
      return contradiction(feed, file.name, reading, columns, dates);
    },
  };
}

const WORD_CHAR = /\w/;

/**
 * A rich-text run of a workbook's text cell (`<r>`, or `<x:r>` under a prefix: what
 * `/<(?:\w+:)?r>/` finds): a date may be split over runs, so no scan can clear it. Found from the
 * literal `r>` (a fast string search) and checked backwards: the regex, which V8 cannot start
 * from a literal, tried every `<` of the sheet's markup and cost 0.45 µs a row of the bench
 * workbook, this 0.18.
 */
export const RICH_TEXT_RUN: TextPattern = {
  test(text) {
    for (let at = text.indexOf('r>', 1); at !== -1; at = text.indexOf('r>', at + 2)) {
      if (text[at - 1] === '<') return true;
      if (text[at - 1] !== ':') continue;
      let start = at - 1;
      while (start > 0 && WORD_CHAR.test(text[start - 1] as string)) start--;
      if (start < at - 1 && text[start - 1] === '<') return true;
    }
    return false;
  },
};

/**
 * Step 1 over a bytes format's stored text: true when all of it was seen and no text in the shape
 * of a contradiction (nor a rich-text run) is in it. Anything else — no stored text, a cap passed,
 * a broken part — is no clearance: step 2 reads the file and meets the same problem as the reader.
 */
async function rawTextClear(text: AsyncIterable<string> | undefined, candidates: RegExp): Promise<boolean> {
  if (!text) return false;
  const watch = new CandidateWatch([candidates, RICH_TEXT_RUN]);
  try {
    for await (const chunk of text) {
      watch.pushText(chunk);
      if (watch.found) return false;
    }
  } catch {
    return false;
  }
  watch.end();
  return watch.clear();
}

function dateColumns(feed: SourceFeed): DateColumn[] {
  return Object.entries(KINDS[feed.kind].fields).flatMap(([field, spec]): DateColumn[] => {
    const mapping = feed.mapping[field];
    if (spec.type !== 'date' || mapping === undefined) return [];
    if (typeof mapping === 'string') return [{ field, refs: [mapping], separator: '' }];
    if ('columns' in mapping) return [{ field, refs: mapping.columns, separator: mapping.separator }];
    if ('column' in mapping) return [{ field, refs: [mapping.column], separator: '' }];
    return [];
  });
}

interface Contradiction {
  column: DateColumn;
  line: number;
  text: string;
}

/**
 * Step 2: the mapped date cells read with the format's reader, up to two contradicting ones. An
 * early return closes the reader (its generator's `finally`).
 */
async function contradiction(
  feed: SourceFeed,
  file: string,
  reading: FormatReading,
  columns: readonly DateColumn[],
  dates: SwappedDates,
): Promise<FileStopError | undefined> {
  const found: Contradiction[] = [];
  let readers: ((row: SourceRow) => Contradiction | undefined)[] | undefined;
  try {
    for await (const batch of reading.batches) {
      readers ??= cellReaders(columns, await reading.columns, dates);
      for (const item of batch) {
        if (item.kind !== 'row') continue;
        for (const read of readers) {
          const hit = read(item.row);
          if (hit) found.push(hit);
        }
        if (found.length >= 2) return stop(file, feed.source.dateFormat, dates, found);
      }
    }
  } catch (error) {
    // The main read meets the same stop (a delimiter the file does not use) and reports it.
    if (error instanceof FileStopError) return undefined;
    throw error;
  }
  return found.length > 0 ? stop(file, feed.source.dateFormat, dates, found) : undefined;
}

/**
 * A reader per date column that fits the header; a column missing from it is left to the
 * mapping's own layout check, which stops the file naming it.
 */
function cellReaders(
  columns: readonly DateColumn[],
  header: Columns | undefined,
  dates: SwappedDates,
): ((row: SourceRow) => Contradiction | undefined)[] {
  return columns
    .filter((column) => !header || column.refs.every((ref) => header.indexOf(ref) !== undefined))
    .map((column) => {
      const cells = column.refs.map((ref) => cellOf(ref, header));
      return (row) => {
        const parts = cells.map((cell) => cell(row)?.trim()).filter((t): t is string => !!t);
        const text = parts.join(column.separator);
        return text !== '' && contradicts(text, dates) ? { column, line: row.line, text } : undefined;
      };
    });
}

const named = (column: DateColumn) =>
  `${column.refs.length === 1 ? 'column' : 'columns'} ${column.refs
    .map((ref) => (typeof ref === 'number' ? `#${ref}` : JSON.stringify(ref)))
    .join(', ')} (mapping.${column.field})`;

function stop(
  file: string,
  declared: string,
  dates: SwappedDates,
  found: readonly Contradiction[],
): FileStopError {
  const first = found[0] as Contradiction;
  const examples = found.map((hit) => `line ${hit.line} ${JSON.stringify(hit.text)}`).join(' and ');
  const fits = dates.swapped.text;
  return new FileStopError(
    'SOURCE_LAYOUT',
    file,
    `${file}: the dates of ${named(first.column)} contradict the feed's dateFormat ${declared}: they fit ${fits} (day and month exchanged), e.g. ${examples}; read as ${declared}, every date with a day of 12 or less would be written with day and month swapped, so nothing of the file is sent: set source.dateFormat to ${fits}`,
  );
}
