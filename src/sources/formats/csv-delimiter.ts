import { FileStopError } from '../file-stop.js';
import type { MappedColumn } from '../row.js';

/** Delimiters exports use: when the one in force does not fit, one of these usually does. */
export const LIKELY_DELIMITERS = [';', ',', '\t', '|'] as const;

/** Data rows looked at before the first is handed on: enough for "most rows", few enough to hold. */
export const DELIMITER_PROBE_ROWS = 10;

const shown = (delimiter: string) => (delimiter === '\t' ? '"\\t" (tab)' : JSON.stringify(delimiter));

/** Non-empty fields of a line split at `delimiter` (a hint: quotes are not honoured). */
const fieldsOf = (text: string, delimiter: string) =>
  text.split(delimiter).filter((f) => f.trim() !== '').length;

/** A header's names split at `delimiter`, trimmed and unquoted (a hint: quotes are not honoured). */
const namesOf = (text: string, delimiter: string) =>
  text.split(delimiter).map((name) => name.trim().replace(/^"(.*)"$/, '$1'));

/**
 * The delimiter a one-column header seems to use: the likely delimiter whose split of it holds
 * the most mapped columns (a name among its names, a position from 2 within them), and at least
 * one. Undefined when none does: a real one-column file, or some other file given as the export
 * (a line of prose with a comma), whose missing columns the mapping's own check names.
 */
function splittingDelimiter(
  header: string,
  inForce: string,
  mapped: readonly MappedColumn[],
): string | undefined {
  let best: { delimiter: string; found: number } | undefined;
  for (const delimiter of LIKELY_DELIMITERS) {
    if (delimiter === inForce) continue;
    const names = namesOf(header, delimiter);
    if (names.length < 2) continue;
    const found = mapped.filter(({ ref }) =>
      typeof ref === 'number' ? ref >= 2 && ref <= names.length : names.includes(ref),
    ).length;
    if (found > (best?.found ?? 0)) best = { delimiter, found };
  }
  return best?.delimiter;
}

/**
 * The header read as one column although another likely delimiter splits it into the mapped
 * columns: every row would be rejected (or, with decimal commas, read as more fields than the
 * header) while the real mistake is the feed's `delimiter`. The file stops (exit 2,
 * SOURCE_LAYOUT) naming the header, the delimiter in force and the one the file seems to use.
 */
export function headerDelimiterProblem(
  file: string,
  header: readonly string[],
  inForce: string,
  mapped: readonly MappedColumn[],
): FileStopError | undefined {
  if (header.length !== 1) return undefined;
  const text = header[0] ?? '';
  const likely = splittingDelimiter(text, inForce, mapped);
  if (likely === undefined) return undefined;
  return new FileStopError(
    'SOURCE_LAYOUT',
    file,
    `${file}: the header reads as one column with the feed's delimiter ${shown(inForce)}: ${JSON.stringify(text)}; the file seems to use ${shown(likely)} (it splits the header into ${fieldsOf(text, likely)} columns): set source.delimiter to ${shown(likely)}`,
  );
}

/**
 * Most of the first data rows have more filled fields than the header: the delimiter in force
 * splits the rows where the export did not mean it to (e.g. `,` on decimal commas of a `;` file
 * whose header held no `,`). Each row would be rejected alone; the file stops instead, naming the
 * header, the delimiter in force and, when one fits the header and rows alike, the one the file
 * seems to use.
 */
export function rowsDelimiterProblem(
  file: string,
  header: readonly string[],
  rows: readonly { line: number; cells: readonly string[] }[],
  inForce: string,
): FileStopError | undefined {
  const over = rows.filter((row) => row.cells.slice(header.length).some((cell) => cell.trim() !== ''));
  if (rows.length === 0 || over.length * 2 <= rows.length) return undefined;
  const headerText = header.join(inForce);
  const lines = rows.map((row) => row.cells.join(inForce));
  const likely = LIKELY_DELIMITERS.find(
    (d) =>
      d !== inForce &&
      fieldsOf(headerText, d) >= 2 &&
      lines.every((line) => fieldsOf(line, d) <= fieldsOf(headerText, d)),
  );
  const first = over[0] as { line: number; cells: readonly string[] };
  return new FileStopError(
    'SOURCE_LAYOUT',
    file,
    `${file}: ${over.length} of the first ${rows.length} rows have more fields than the header with the feed's delimiter ${shown(inForce)} (line ${first.line}: ${first.cells.length} fields, the header ${JSON.stringify(headerText)}: ${header.length}); ${
      likely === undefined
        ? `the rows hold ${shown(inForce)} in unquoted cells (e.g. a decimal comma): check source.delimiter and the export's quoting`
        : `the file seems to use ${shown(likely)}: set source.delimiter to ${shown(likely)}`
    }`,
  );
}
