/**
 * CSV cells that are safe to open in a spreadsheet: a text starting with = + - @ or a tab/CR
 * would be run as a formula (CSV injection), so it gets a leading apostrophe. Plain numbers such
 * as "-22.59" are left as they are, or negative amounts would stop being numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Either of the above could apply: most cells need neither, and are written as they are. */
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;

export function csvCell(value: string | number | undefined | null): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(value);
  let text = value;
  if (!NEEDS_CARE.test(text)) return text;
  if (FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly (string | number | undefined | null)[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += i === 0 ? csvCell(cells[i]) : `,${csvCell(cells[i])}`;
  return `${line}\r\n`;
}
