import type { RecordOutcome } from '../sync/outcome.js';

/**
 * A CSV as German Excel opens it with a double click: `;` between cells (the list separator of a
 * German Windows), amounts with a decimal comma, UTF-8 with a byte order mark (without it Excel
 * reads the bytes as Windows-1252 and umlauts break), CRLF line ends, and a cell quoted when it
 * holds `;`, `"`, CR or LF (a `"` doubled).
 *
 * CSV injection (OWASP): a text cell starting with = + - @, a tab or a CR would be run as a
 * formula, so it gets a leading apostrophe and is quoted. Amounts are written as numbers and are
 * never neutralised: `-22,59` stays a negative number.
 */
export const EXCEL_CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[;"\r\n]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A text cell: neutralised when it would start a formula, quoted when it must be. */
export function excelCsvText(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** An amount (an exact decimal with a dot) as a number with a decimal comma; anything else as text. */
export function excelCsvAmount(value: string | undefined): string {
  if (value === undefined) return '';
  return DECIMAL.test(value) ? value.replace('.', ',') : excelCsvText(value);
}

export function excelCsvLine(cells: readonly string[]): string {
  return `${cells.join(';')}\r\n`;
}

/** The header line of a file of `columns`, after the byte order mark. */
export function excelCsvHeader(columns: readonly string[]): string {
  return EXCEL_CSV_BOM + excelCsvLine(columns.map(excelCsvText));
}

/** One outcome in the columns of OUTCOME_COLUMNS (file-sink.ts), in that order. */
export function outcomeExcelCsvLine(o: RecordOutcome, runId: string): string {
  return excelCsvLine([
    excelCsvText(o.file),
    String(o.line),
    excelCsvText(o.externalId),
    o.outcome,
    o.serviceId === undefined ? '' : String(o.serviceId),
    excelCsvText(o.code),
    excelCsvText(o.message),
    excelCsvAmount(o.amount),
    excelCsvText(runId),
    excelCsvText(o.key),
  ]);
}
