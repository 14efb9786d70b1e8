import type { DecimalSeparator } from '../values/amount.js';
import type { Workbook } from './xlsx-workbook.js';

/**
 * What a cell's text depends on: the workbook's date system, date styles and shared strings, and
 * the feed's formats, in which typed cells are written so they parse like its text cells.
 */
export interface CellStyle extends Pick<Workbook, 'date1904' | 'dateStyles' | 'sharedStrings'> {
  readonly decimalSeparator: DecimalSeparator;
  readonly dateFormat: string;
}

/** One cell as the sheet stores it: its type (`t`), style index (`s`) and the text of `<v>` or `<is>`. */
export interface RawCell {
  type: string | undefined;
  style: number | undefined;
  value: string;
}

/** A cell's text for the mapper, or why the cell holds no value that can be read. */
export type CellText = { ok: true; text: string } | { ok: false; problem: string };

const ok = (text: string): CellText => ({ ok: true, text });
const bad = (problem: string): CellText => ({ ok: false, problem });

/**
 * The cell's text. A number is the decimal Excel shows for it (its stored text to 15 significant
 * digits, shownDecimal), never through a JavaScript number (which would print 1e-7); a number in a
 * date style is that day; a formula gives its cached value. Both are written in the feed's
 * decimalSeparator and dateFormat. A number read into a text field (`asText`: an ID, a reference,
 * an account number) is its own digits, or refused when the cell no longer has them (numberAsText).
 */
export function cellText(cell: RawCell, style: CellStyle, asText = false): CellText {
  const { value } = cell;
  switch (cell.type) {
    case 's': {
      const text = style.sharedStrings[Number(value)];
      return text === undefined
        ? bad(`refers to shared string ${value}, which the workbook does not have`)
        : ok(text);
    }
    case 'inlineStr':
    case 'str':
      return ok(value);
    case 'b':
      return ok(value === '1' || value === 'true' ? 'true' : 'false');
    case 'e':
      return bad(`holds the error value ${value}, not a value`);
    case 'd': {
      const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
      return day
        ? ok(formatDate(Number(day[1]), Number(day[2]), Number(day[3]), style.dateFormat))
        : bad(`"${value}" is not an ISO date`);
    }
    default: {
      if (value === '') return ok('');
      const stored = plainDecimal(value);
      if (stored === undefined) return bad(`"${value}" is not a number`);
      if (cell.style !== undefined && style.dateStyles.has(cell.style))
        return serialDate(shownDecimal(stored), style);
      const exact = asText ? numberAsText(stored, value) : ok(shownDecimal(stored));
      if (!exact.ok) return exact;
      const decimal = exact.text;
      return ok(style.decimalSeparator === '.' ? decimal : decimal.replace('.', ','));
    }
  }
}

/** A number as plain decimal text, digit for digit ("1.5E-3" -> "0.0015"), or undefined. */
export function plainDecimal(text: string): string | undefined {
  const match = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const sign = match[1] === '-' ? '-' : '';
  const digits = `${match[2]}${match[3] ?? ''}`;
  const point = (match[2] ?? '').length + Number(match[4] ?? 0);
  const padded = point <= 0 ? `${'0'.repeat(1 - point)}${digits}` : digits.padEnd(point, '0');
  const at = Math.max(point, 1);
  const integer = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  const fraction = padded.slice(at);
  return `${sign}${integer}${fraction === '' ? '' : `.${fraction}`}`;
}

/** Excel shows, computes with and types back at most 15 significant digits of a number. */
const SHOWN_DIGITS = 15;

/** Above 2^53 - 1 a double (what a number cell stores) no longer holds every integer. */
const MAX_EXACT_INTEGER = 2n ** 53n - 1n;

/**
 * Whether a number cell still holds the value a text field (an ID) was given: at most 15
 * significant digits (more, and Excel has already rounded what it shows, sums and exports) and
 * not beyond 2^53 - 1. Otherwise the value sent would be a rounded ID, another record's or none:
 * refused, naming what to change. Within both, the value digit for digit ("5.0" as "5",
 * 1.23E+5 as "123000").
 */
function numberAsText(stored: string, raw: string): CellText {
  const bare = stored.replace(/^-/, '');
  const [integer = '', fraction = ''] = bare.split('.');
  const significant = `${integer}${fraction}`.replace(/^0+/, '').replace(/0+$/, '').length;
  const fix =
    'store the ID as text in the workbook (a text cell, or the column formatted as Text before the IDs are entered)';
  if (significant > SHOWN_DIGITS)
    return bad(
      `holds the number ${raw} of ${significant} significant digits: Excel keeps ${SHOWN_DIGITS} (it shows ${shownDecimal(stored)}), so the value's own digits are lost; ${fix}`,
    );
  if (BigInt(integer || '0') > MAX_EXACT_INTEGER)
    return bad(
      `holds the number ${raw}, beyond ${MAX_EXACT_INTEGER} (2^53 - 1), where a number cell no longer holds every integer; ${fix}`,
    );
  const kept = fraction.replace(/0+$/, '');
  return ok(`${stored.startsWith('-') ? '-' : ''}${integer}${kept === '' ? '' : `.${kept}`}`);
}

/**
 * A plain decimal (plainDecimal) as Excel shows it: rounded half away from zero to 15 significant
 * digits, trailing fraction zeros dropped. A cell holds a double written with up to 17 digits:
 * `=0.1+0.2` is stored as 0.30000000000000004 and shown, summed and exported by Excel as 0.3.
 */
export function shownDecimal(decimal: string): string {
  // Fifteen characters hold fifteen digits at most: most cells end here.
  if (decimal.length <= SHOWN_DIGITS) return decimal;
  const negative = decimal.startsWith('-');
  const bare = negative ? decimal.slice(1) : decimal;
  const point = bare.indexOf('.');
  const digits = point < 0 ? bare : bare.slice(0, point) + bare.slice(point + 1);
  const integerLength = point < 0 ? bare.length : point;
  const lead = digits.search(/[1-9]/);
  if (lead < 0 || digits.length - lead <= SHOWN_DIGITS) return decimal;
  const end = lead + SHOWN_DIGITS;
  // Rounded on the kept digits as an integer: one more digit when 99…9 rounds up.
  let kept = BigInt(digits.slice(0, end));
  if (digits.charCodeAt(end) >= 53) kept += 1n;
  let text = kept.toString().padStart(end, '0');
  const shift = text.length - end; // 1 when rounding carried into a new leading digit
  const integerDigits = integerLength + shift;
  if (text.length < integerDigits) text = text.padEnd(integerDigits, '0');
  const integer = text.slice(0, integerDigits).replace(/^0+(?=\d)/, '') || '0';
  const fraction = text.slice(integerDigits).replace(/0+$/, '');
  return `${negative ? '-' : ''}${integer}${fraction === '' ? '' : `.${fraction}`}`;
}

const DAY_MS = 86_400_000;

/**
 * The day of a date cell's serial number. The 1900 system counts from 1899-12-31 as day 0 and
 * has Lotus' 29 February 1900 as day 60; from day 61 on, days count from 1899-12-30. A time of
 * day (the fraction) is not part of a date field.
 */
function serialDate(decimal: string, style: CellStyle): CellText {
  const serial = Math.floor(Number(decimal));
  if (!(serial >= 1) || serial > 2_958_465) return bad(`${decimal} is not a day in a date cell`);
  if (!style.date1904 && serial === 60) return bad('is 29 February 1900, a day that does not exist');
  const epoch = style.date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, serial < 60 ? 31 : 30);
  const day = new Date(epoch + serial * DAY_MS);
  return ok(formatDate(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), style.dateFormat));
}

const two = (n: number) => String(n).padStart(2, '0');

/** A dateFormat split once into its fields (`y`, `d`, `M`) and the literal text between them. */
type DateParts = readonly string[];
const FIELD = /yyyy|yy|dd|d|MM|M/g;
/** Split formats by their text: a feed has one, a process a handful. */
const splitFormats = new Map<string, DateParts>();

function dateParts(format: string): DateParts {
  let parts = splitFormats.get(format);
  if (!parts) {
    const split: string[] = [];
    let from = 0;
    for (const match of format.matchAll(FIELD)) {
      split.push(format.slice(from, match.index), (match[0] as string).charAt(0));
      from = match.index + match[0].length;
    }
    split.push(format.slice(from));
    parts = split;
    splitFormats.set(format, parts);
  }
  return parts;
}

/**
 * A day written in a feed's dateFormat. The year is always written with four digits: the date
 * reader takes four digits for `yy` too, and a two-digit year would have to be guessed back.
 * The format is split once (every date cell of a workbook comes here: a regex replace with a
 * callback per cell was half of a date cell's cost).
 */
export function formatDate(year: number, month: number, day: number, format: string): string {
  const parts = dateParts(format);
  // Even places are literal text, odd ones a field.
  let text = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const field = parts[i];
    text += field === 'y' ? String(year).padStart(4, '0') : two(field === 'd' ? day : month);
    text += parts[i + 1] as string;
  }
  return text;
}
