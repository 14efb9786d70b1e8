import { parse } from 'csv-parse/sync';
import { LIKELY_DELIMITERS } from '../sources/formats/csv-delimiter.js';
import { csvParseOptions, isBlank, lineBreaksIn } from '../sources/formats/csv-reader.js';
import { CsvSource } from '../sources/formats/csv-source.js';
import { guess, type Inferred, sure } from './inferred.js';
import { SAMPLE_ROWS, wholeLines } from './sample.js';

/** A record of the sample with the physical line it starts on. */
interface Line {
  line: number;
  cells: string[];
}

/** The table of a delimited export: where its header is and the rows under it. */
export interface Table {
  delimiter: Inferred<string>;
  quote: Inferred<string>;
  /** Lines before the header (a bank's account, period and balance lines). */
  skipLines: number;
  /** A pattern that finds the header whatever the preamble's length; only when there is a preamble. */
  headerPattern?: string;
  /** Lines after the last row that are no rows (only counted when the sample is the whole file). */
  skipFooterLines: number;
  header: readonly string[];
  /** The header's physical line (1-based). */
  headerLine: number;
  /** The preamble's non-blank lines, as cells (a bank's account, period and balance lines). */
  preamble: readonly (readonly string[])[];
  /** The data rows of the sample (at most SAMPLE_ROWS), as many cells as the header. */
  rows: readonly (readonly string[])[];
  /** The sample held more rows than SAMPLE_ROWS. */
  rowsCapped: boolean;
}

const shown = (delimiter: string) => (delimiter === '\t' ? 'tab' : JSON.stringify(delimiter));

/** The sample's records with `delimiter`, parsed as the CSV reader parses them; undefined when it cannot be. */
function recordsOf(text: string, delimiter: string, quote: string, complete: boolean): Line[] | undefined {
  const options = {
    ...csvParseOptions(CsvSource.parse({ format: 'csv', path: 'sample', delimiter, quote })),
    // The cap may cut a quoted cell that spans lines: its record, the last, is left out, not the delimiter.
    skip_records_with_error: !complete,
  };
  let records: string[][];
  try {
    records = parse(text, options) as string[][];
  } catch {
    return undefined;
  }
  let line = 1;
  return records.map((cells) => {
    const at = line;
    line += 1 + lineBreaksIn(cells);
    return { line: at, cells };
  });
}

interface Candidate {
  delimiter: string;
  /** Index of the header among the non-blank records. */
  header: Line;
  table: Line[];
  preamble: Line[];
  footer: Line[];
}

/**
 * The table under one delimiter: a run of records with as many cells as its last one (at least
 * two) up to the end or up to three footer lines with fewer cells; of those runs the longest (the fewest
 * footer lines on a tie). Its first record is the header, everything before it preamble.
 */
function tableOf(records: readonly Line[], delimiter: string): Candidate | undefined {
  const lines = records.filter((r) => !isBlank(r.cells));
  let best: Candidate | undefined;
  for (let footer = 0; footer <= Math.min(3, lines.length - 1); footer++) {
    const end = lines.length - footer;
    const width = lines[end - 1]?.cells.length ?? 0;
    if (width < 2) continue;
    let start = end - 1;
    while (start > 0 && lines[start - 1]?.cells.length === width) start--;
    // A title padded to the table's width ("Umsätze";"";"";…) is preamble: a header names most columns.
    while (start < end - 1 && filled(lines[start] as Line) * 2 < width) start++;
    const header = lines[start] as Line;
    if (filled(header) < 2) continue;
    // Footer lines are shorter than the rows (a closing balance): a longer one is the real table.
    if (lines.slice(end).some((f) => f.cells.length >= width)) continue;
    if (best && end - start - 1 <= best.table.length) continue;
    best = {
      delimiter,
      header,
      table: lines.slice(start + 1, end),
      preamble: lines.slice(0, start),
      footer: lines.slice(end),
    };
  }
  return best;
}

const filled = (line: Line) => line.cells.filter((c) => c.trim() !== '').length;

/** A header names its columns: every filled cell has a letter (a row of values has dates and amounts). */
const namesLike = (line: Line) => line.cells.every((c) => c.trim() === '' || /\p{L}/u.test(c));

/**
 * The rival's header cells hold the other's delimiter while the other's hold none of the rival's:
 * the rival left the header unsplit (`Buchungs-ID;Buchungsdatum;…;1.190` read at its decimal comma).
 */
const joins = (rival: Candidate, best: Candidate) =>
  rival.header.cells.some((c) => c.includes(best.delimiter)) &&
  !best.header.cells.some((c) => c.includes(rival.delimiter));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Finds delimiter, quote, preamble and header of a delimited text sample. The delimiter is the
 * likely one (csv-delimiter.ts) under which the most rows share the header's width; `sure` when
 * no other one gives the header two or more columns, or the rows prove it.
 */
export function findTable(text: string, complete: boolean): Table | undefined {
  const whole = wholeLines(text, complete);
  const quoted = /(^|[;,\t|])"/m.test(whole);
  const quote = '"';
  const candidates = LIKELY_DELIMITERS.flatMap((delimiter) => {
    const records = recordsOf(whole, delimiter, quote, complete);
    const found = records && tableOf(records, delimiter);
    return found ? [found] : [];
  });
  // More rows first; among as many, a header of names (a letter in every filled cell) before one
  // that is a row of values, then more columns.
  const score = (c: Candidate) =>
    (c.table.length + 1) * 1000 + (namesLike(c.header) ? 500 : 0) + c.header.cells.length;
  candidates.sort((a, b) => score(b) - score(a));
  const best = candidates[0];
  if (!best) return undefined;
  const rival = candidates[1];
  const rows = best.table.slice(0, SAMPLE_ROWS).map((r) => r.cells);
  const columns = best.header.cells.length;
  const delimiter =
    rival === undefined
      ? sure(best.delimiter, `only ${shown(best.delimiter)} splits the header into columns (${columns})`)
      : // More rows of the header's width prove it; with no rows at all, only a header of clearly
        // more columns does. As many rows under both: only a header of names against a row of
        // values tells, or a runner-up whose header cells still hold the other delimiter.
        best.table.length > rival.table.length ||
          (best.table.length === rival.table.length &&
            ((namesLike(best.header) && !namesLike(rival.header)) || joins(rival, best))) ||
          (best.table.length === 0 && columns >= 3 && columns > rival.header.cells.length)
        ? sure(
            best.delimiter,
            `${shown(best.delimiter)} splits the header${best.table.length === 0 ? '' : ` and all ${best.table.length} sampled rows`} into ${columns} columns; ${shown(rival.delimiter)} into ${rival.header.cells.length} (${rival.table.length} rows)`,
          )
        : guess(
            best.delimiter,
            `${shown(best.delimiter)} gives ${columns} columns; ${shown(rival.delimiter)} splits the header and ${rival.table.length} rows as evenly`,
            [best.delimiter, rival.delimiter],
          );
  const skipLines = best.header.line - 1;
  const table: Table = {
    delimiter,
    quote: quoted
      ? sure(quote, 'cells are quoted with "')
      : guess(quote, 'no quoted cell in the sample; the default'),
    skipLines,
    skipFooterLines: complete ? best.footer.length : 0,
    header: best.header.cells,
    preamble: best.preamble.map((p) => p.cells),
    rowsCapped: best.table.length > SAMPLE_ROWS,
    headerLine: best.header.line,
    rows,
  };
  if (skipLines > 0) {
    const pattern = headerPatternOf(best.header.cells, best.delimiter);
    const re = new RegExp(pattern);
    if (!best.preamble.some((p) => re.test(p.cells.join(best.delimiter)))) table.headerPattern = pattern;
  }
  return table;
}

/** `^Buchungstag;Wertstellung;`: the header's first two names as csv-reader joins cells. */
export function headerPatternOf(header: readonly string[], delimiter: string): string {
  return `^${header
    .slice(0, 2)
    .map((name) => escapeRegExp(name) + escapeRegExp(delimiter))
    .join('')}`;
}

/** A table found among rows of cells (a sheet's rows as its reader gives them). */
export interface RowsTable {
  /** Index of the header among the rows given. */
  headerIndex: number;
  header: readonly string[];
  preamble: readonly (readonly string[])[];
  /** The data rows (at most SAMPLE_ROWS), as many cells as the header. */
  rows: readonly (readonly string[])[];
  /** A pattern of the header's first two names joined by `delimiter`, matching no preamble row. */
  headerPattern?: string;
}

/**
 * The table among rows already split into cells, found as in delimited text (tableOf): a title
 * or an account block above the header is preamble. `delimiter` joins a row's cells for the
 * header pattern (a sheet's row text is its cells joined by tabs).
 */
export function findRowsTable(
  rows: readonly (readonly string[])[],
  delimiter: string,
): RowsTable | undefined {
  const found = tableOf(
    rows.map((cells, i) => ({ line: i + 1, cells: [...cells] })),
    delimiter,
  );
  if (!found) return undefined;
  const table: RowsTable = {
    headerIndex: found.header.line - 1,
    header: found.header.cells,
    preamble: found.preamble.map((p) => p.cells),
    rows: found.table.slice(0, SAMPLE_ROWS).map((r) => r.cells),
  };
  if (found.preamble.length === 0) return table;
  // A tab written `\t`: the YAML shows it, a literal tab it would not.
  const pattern = headerPatternOf(found.header.cells, delimiter).replaceAll('\t', '\\t');
  const re = new RegExp(pattern);
  return found.preamble.some((p) => re.test(p.cells.join(delimiter)))
    ? table
    : { ...table, headerPattern: pattern };
}
