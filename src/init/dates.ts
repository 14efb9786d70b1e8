import { compileDateFormat, parseDate } from '../sources/values/date.js';
import type { Column } from './columns.js';
import { ask, type Inferred, quoted, sure } from './inferred.js';

/**
 * The date formats init tries, each in its zero-padded form (date.ts reads "5.2.2026" under
 * dd.MM.yyyy too) and with both year widths (date.ts reads either width under either token, so
 * the two are told apart only by what the cells show, below). Month first is tried with `/` and
 * `-` only: no locale writes it with dots, so `03.04.18` is not held open as March the 4th.
 */
export const DATE_FORMATS = [
  'dd.MM.yyyy',
  'dd.MM.yy',
  'yyyy-MM-dd',
  'dd/MM/yyyy',
  'dd/MM/yy',
  'MM/dd/yyyy',
  'MM/dd/yy',
  'dd-MM-yyyy',
  'MM-dd-yyyy',
  'yyyy/MM/dd',
  'yyyy.MM.dd',
] as const;

/** A column every value of which is a date under at least one format. */
export interface DateColumn {
  column: Column;
  /** The formats that read every value of the column. */
  formats: readonly string[];
}

/**
 * Whether every value reads under the format. A year first must have four digits: date.ts takes
 * two under `yyyy` as well, and `03.04.18` is no `yyyy.MM.dd` date of the year 2003.
 */
export function readsAll(values: readonly string[], format: string): boolean {
  const compiled = compileDateFormat(format);
  const yearFirst = compiled.groups.year === 1;
  return values.every(
    (v) =>
      parseDate(v, compiled).ok &&
      (!yearFirst || (compiled.pattern.exec(v.trim().replace(/T.*$/, ''))?.[1] ?? '').length === 4),
  );
}

/** The columns whose every sampled value is a date, with the formats consistent with all of them. */
export function dateColumns(columns: readonly Column[]): DateColumn[] {
  return columns.flatMap((column) => {
    if (column.values.length === 0 || !column.values.some((v) => /\D/.test(v))) return [];
    const formats = DATE_FORMATS.filter((f) => readsAll(column.values, f));
    return formats.length > 0 ? [{ column, formats }] : [];
  });
}

/**
 * The formats of a date column as its cells are written: date.ts reads "2026" under `yy` too, so
 * `dd.MM.yy` fits "02.01.2026" as well, but a note listing both would suggest a choice there is not.
 */
export function formatsAsWritten({ column, formats }: DateColumn): string[] {
  return formats.filter((f) => f.includes('yyyy') !== writesShortYears(column.values, f));
}

/** The year width the cells show under a format: 2 when every year is written with two digits. */
function writesShortYears(values: readonly string[], format: string): boolean {
  const compiled = compileDateFormat(format);
  return values.every((v) => {
    const match = compiled.pattern.exec(v.trim().replace(/T.*$/, ''));
    return (match?.[compiled.groups.year] ?? '').length === 2;
  });
}

/**
 * The feed's one `source.dateFormat` for the given date columns: the formats that read every
 * value of all of them, grouped by the dates they give. One group: `sure`, written as the cells
 * are (`yy` when every year has two digits). Several groups (day and month cannot be told apart,
 * e.g. every day <= 12 under MM/dd/yyyy and dd/MM/yyyy): `ask`, listing one format per reading —
 * never a silent pick. None: `ask` too (the columns disagree).
 */
export function feedDateFormat(columns: readonly DateColumn[]): Inferred<string> {
  if (columns.length === 0) return ask('no date column found');
  const values = columns.flatMap((c) => c.column.values);
  const names = columns.map((c) => quoted(c.column.name)).join(', ');
  const common = DATE_FORMATS.filter((f) => columns.every((c) => c.formats.includes(f)));
  if (common.length === 0)
    return ask(
      `the date columns ${names} are written in different formats (${columns.map((c) => c.formats.join('/')).join(' vs ')}); one dateFormat reads them all`,
      [...new Set(columns.flatMap((c) => c.formats))],
    );
  const readings = new Map<string, string[]>();
  for (const format of common) {
    const compiled = compileDateFormat(format);
    const dates = values.map((v) => (parseDate(v, compiled) as { value: string }).value).join(',');
    readings.set(dates, [...(readings.get(dates) ?? []), format]);
  }
  const picks = [...readings.values()].map((formats) => {
    const short = formats.filter((f) => !f.includes('yyyy'));
    const long = formats.filter((f) => f.includes('yyyy'));
    return (writesShortYears(values, formats[0] as string) ? short[0] : long[0]) ?? (formats[0] as string);
  });
  if (picks.length === 1)
    return sure(
      picks[0] as string,
      `every one of ${values.length} values of ${names} reads as ${picks[0]}, e.g. ${quoted(values[0] ?? '')}`,
    );
  return ask(
    `day and month cannot be told apart: every value of ${names} (e.g. ${quoted(values[0] ?? '')}) reads as ${picks.join(' and as ')}, with different dates; choose the export's format`,
    picks,
  );
}
