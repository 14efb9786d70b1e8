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
  order: ('day' | 'month' | 'year')[];
  text: string;
}

const formatCache = new Map<string, DateFormat>();

export function compileDateFormat(format: string): DateFormat {
  const cached = formatCache.get(format);
  if (cached) return cached;
  const order: DateFormat['order'] = [];
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
  const compiled = { pattern: new RegExp(`^${source}$`), order, text: format };
  formatCache.set(format, compiled);
  return compiled;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Parses a cell to an ISO date (yyyy-MM-dd). ISO timestamps are accepted by `yyyy-MM-dd` (date part). */
export function parseDate(text: string, format: DateFormat): Parsed<string> {
  const trimmed = text.trim();
  if (trimmed === '') return failed(`expected a date as ${format.text}, found an empty cell`);
  const candidate =
    format.text === 'yyyy-MM-dd'
      ? trimmed.replace(/^(\d{4}-\d{2}-\d{2})T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?$/, '$1')
      : trimmed;
  const match = format.pattern.exec(candidate);
  if (!match) return failed(`"${text}" is not a date as ${format.text}`);
  const parts = { day: 0, month: 0, year: 0 };
  format.order.forEach((field, i) => {
    const digits = match[i + 1] ?? '';
    let value = Number(digits);
    if (field === 'year' && digits.length === 2) value += value <= 68 ? 2000 : 1900;
    parts[field] = value;
  });
  const date = new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
  if (
    date.getUTCFullYear() !== parts.year ||
    date.getUTCMonth() !== parts.month - 1 ||
    date.getUTCDate() !== parts.day
  ) {
    return failed(
      `"${text}" is not a calendar date (read as day ${parts.day}, month ${parts.month}, year ${parts.year})`,
    );
  }
  return parsed(`${pad(parts.year, 4)}-${pad(parts.month, 2)}-${pad(parts.day, 2)}`);
}
