import { compileDateFormat, type DateFormat, parseDate } from './date.js';

/**
 * The near-miss of a declared date format that writes wrong data: day and month exchanged. Under
 * `MM.dd.yyyy` a `dd.MM.yyyy` export reads every date whose day is 12 or less as a valid, wrong
 * date; only a day of 13 or more shows the mistake. (A two-digit year under `yyyy`, or four digits
 * under `yy`, cannot read wrong: date.ts reads both widths under either token.)
 */
export interface SwappedDates {
  declared: DateFormat;
  /** The declared format with day and month exchanged (`dd.MM.yyyy` for `MM.dd.yyyy`). */
  swapped: DateFormat;
  /**
   * Finds, in any text, the places where a cell could contradict the declared format: written in
   * its shape with 13 to 31 where the month stands. A file without any is proved consistent
   * without being parsed; a hit is only a candidate (it may stand in a column of free text).
   */
  candidates: RegExp;
}

const TOKENS = /yyyy|yy|dd|d|MM|M|[^a-zA-Z]/g;

/** The declared format and its day/month exchange. */
export function swappedDates(format: string): SwappedDates {
  const swapped = format.replace(/dd|d|MM|M/g, (token) =>
    token.startsWith('d') ? token.replace(/d/g, 'M') : token.replace(/M/g, 'd'),
  );
  const candidate = format.replace(TOKENS, (token, at: number) => {
    // The pattern is only ever searched for (`test`), never matched whole: a year or day at either
    // end of the format is found as well by its shortest form (`\d{2}-…` is in a text exactly
    // when `(?:\d{4}|\d{2})-…` is), and a leading alternation or range makes V8 try it at every
    // digit: over a workbook's sheet XML that was 1.2 of the scan's 1.6 µs a row.
    const edge = at === 0 || at + token.length === format.length;
    if (token === 'yyyy' || token === 'yy') return edge ? '\\d{2}' : '(?:\\d{4}|\\d{2})';
    if (token === 'dd' || token === 'd') return edge ? '\\d' : '\\d{1,2}';
    if (token === 'MM' || token === 'M') return '(?:1[3-9]|2\\d|3[01])';
    // JSON may write "/" as "\/" (PHP does by default).
    if (token === '/') return '\\\\?/';
    return token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return {
    declared: compileDateFormat(format),
    swapped: compileDateFormat(swapped),
    // No digit boundaries: a looser filter is still sound (a hit only costs the exact pass), and
    // a lookbehind on every digit doubled the scan's cost.
    candidates: new RegExp(candidate),
  };
}

/** Whether a cell fails the declared format but reads as a valid date with day and month exchanged. */
export function contradicts(text: string, dates: SwappedDates): boolean {
  return !parseDate(text, dates.declared).ok && parseDate(text, dates.swapped).ok;
}
