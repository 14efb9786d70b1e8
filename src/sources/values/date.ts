import { failed, type Parsed, parsed } from './result.js';

/**
 * Date formats of the feed files: tokens dd/d (day), MM/M (month), yyyy/yy (year) and literal
 * separators, e.g. dd.MM.yyyy, d.M.yyyy, yyyy-MM-dd, MM/dd/yyyy, dd.MM.yy. Parsing is lenient
 * where it cannot change the meaning: day and month may lack the leading zero ("5.2.2026"), and a
 * four-digit year token also takes a two-digit year ("03.04.18"), read with the POSIX pivot
 * (00-68 -> 2000-2068, 69-99 -> 1969-1999). An impossible calendar date is refused.
 */
export interface DateFormat {
  pattern: RegExp;
  /** Capture group of each date part in `pattern` (1-based). */
  groups: { day: number; month: number; year: number };
  text: string;
  /** Cells read under this format and what they gave: exports repeat their dates a lot. */
  memo: Map<string, Parsed<string>>;
}

/** Distinct cells remembered per format (a year of bookings has 366 dates at most). */
const MEMO_LIMIT = 4096;

const formatCache = new Map<string, DateFormat>();

export function compileDateFormat(format: string): DateFormat {
  const cached = formatCache.get(format);
  if (cached) return cached;
  const order: ('day' | 'month' | 'year')[] = [];
  const source = format.replace(/yyyy|yy|dd|d|MM|M|[^a-zA-Z]/g, (token) => {
    if (token === 'yyyy' || token === 'yy') {
      order.push('year');
      return '(\\d{4}|\\d{2})';
    }
    if (token === 'dd' || token === 'd') {
      order.push('day');
      return '(\\d{1,2})';
    }
    if (token === 'MM' || token === 'M') {
      order.push('month');
      return '(\\d{1,2})';
    }
    return token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  });
  if (order.length !== 3 || new Set(order).size !== 3 || /[a-zA-Z]/.test(source.replace(/\\d/g, ''))) {
    throw new Error(
      `unsupported date format "${format}": use the tokens dd, d, MM, M, yyyy, yy and separators (e.g. dd.MM.yyyy)`,
    );
  }
  const groups = {
    day: order.indexOf('day') + 1,
    month: order.indexOf('month') + 1,
    year: order.indexOf('year') + 1,
  };
  const compiled = { pattern: new RegExp(`^${source}$`), groups, text: format, memo: new Map() };
  formatCache.set(format, compiled);
  return compiled;
}

/**
 * A timestamp whose date part a date field takes under yyyy-MM-dd, as written (the writer's zone):
 * ISO 8601 with `T`, or SQL's form with a space, as databases print timestamps (`2026-11-01
 * 10:00:00.123456+01`; a database feed's are printed in its timeZone) and SQL exports write them.
 */
const ISO_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** Whether a cell is a timestamp (a date and a time), as yyyy-MM-dd takes its date part. */
export function isTimestampText(text: string): boolean {
  return ISO_TIMESTAMP.test(text.trim());
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * Whether day, month and year name a day of the proleptic Gregorian calendar, as JavaScript's
 * Date.UTC reads them: a year below 100 would be taken as 19xx there, so it is no calendar date.
 */
function isCalendarDate(day: number, month: number, year: number): boolean {
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/** Parses a cell to an ISO date (yyyy-MM-dd). ISO timestamps are accepted by `yyyy-MM-dd` (date part). */
export function parseDate(text: string, format: DateFormat): Parsed<string> {
  const known = format.memo.get(text);
  if (known) return known;
  const result = readDate(text, format);
  if (format.memo.size >= MEMO_LIMIT) format.memo.clear();
  format.memo.set(text, result);
  return result;
}

function readDate(text: string, format: DateFormat): Parsed<string> {
  const trimmed = text.trim();
  if (trimmed === '') return failed(`expected a date as ${format.text}, found an empty cell`);
  const candidate = format.text === 'yyyy-MM-dd' ? trimmed.replace(ISO_TIMESTAMP, '$1') : trimmed;
  const match = format.pattern.exec(candidate);
  if (!match) return failed(`"${text}" is not a date as ${format.text}`);
  const at = format.groups;
  const day = Number(match[at.day]);
  const month = Number(match[at.month]);
  const yearDigits = match[at.year] ?? '';
  let year = Number(yearDigits);
  if (yearDigits.length === 2) year += year <= 68 ? 2000 : 1900;
  if (!isCalendarDate(day, month, year)) {
    return failed(`"${text}" is not a calendar date (read as day ${day}, month ${month}, year ${year})`);
  }
  return parsed(`${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`);
}
