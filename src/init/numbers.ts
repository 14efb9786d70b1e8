import { type DecimalSeparator, parseAmount } from '../sources/values/amount.js';
import type { Column } from './columns.js';
import { ask, guess, type Inferred, quoted, sure } from './inferred.js';

export interface NumberStyle {
  decimalSeparator: Inferred<DecimalSeparator>;
  /** The thousands separator seen in the amounts ('' when none was), for the comment. */
  thousands: Inferred<string>;
}

const SEPARATORS: readonly DecimalSeparator[] = [',', '.'];

/** Whether every value of the column reads as an amount with `separator`, and as what. */
function readAll(values: readonly string[], separator: DecimalSeparator): string[] | undefined {
  const out: string[] = [];
  for (const value of values) {
    const read = parseAmount(value, separator);
    if (!read.ok) return undefined;
    out.push(read.value.decimal);
  }
  return out;
}

/** What one column says about the decimal separator. */
interface Evidence {
  column: Column;
  /** The separators that read every value. */
  fits: DecimalSeparator[];
  /** A value that only `fits` reads, or that the two read differently ("1,234"). */
  example?: string;
}

/** Columns whose every value is an amount under one separator or the other. */
export function amountColumns(columns: readonly Column[]): Column[] {
  return columns.filter(
    (c) => c.values.length > 0 && SEPARATORS.some((s) => readAll(c.values, s) !== undefined),
  );
}

function evidenceOf(column: Column): Evidence | undefined {
  const read = SEPARATORS.map((s) => readAll(column.values, s));
  const fits = SEPARATORS.filter((_, i) => read[i] !== undefined);
  if (fits.length === 0) return undefined;
  if (fits.length === 1) {
    const other = SEPARATORS.find((s) => s !== fits[0]) as DecimalSeparator;
    return { column, fits, example: column.values.find((v) => !parseAmount(v, other).ok) };
  }
  const [comma, point] = read as [string[], string[]];
  const at = comma.findIndex((d, i) => d !== point[i]);
  return at === -1 ? undefined : { column, fits, example: column.values[at] };
}

/**
 * The decimal separator from the amount-like columns (every value an amount): `sure` when some
 * column's values read only with one separator and no column contradicts it; `ask` when columns
 * disagree or a value reads as two different amounts ("1,234"); a guess (the default `.`) when no
 * value shows it. `preferred` are the columns the mapping reads amounts from, when known: they
 * count first.
 */
export function inferNumberStyle(columns: readonly Column[], preferred: readonly Column[] = []): NumberStyle {
  const pool = preferred.length > 0 ? preferred : columns;
  const evidence = pool.flatMap((c) => evidenceOf(c) ?? []);
  const decided = evidence.filter((e) => e.fits.length === 1);
  const undecided = evidence.filter((e) => e.fits.length === 2);
  const separators = [...new Set(decided.map((e) => e.fits[0] as DecimalSeparator))];
  let decimalSeparator: Inferred<DecimalSeparator>;
  if (separators.length === 1 && undecided.length === 0) {
    const e = decided[0] as Evidence;
    decimalSeparator = sure(
      separators[0] as DecimalSeparator,
      `${quoted(e.example ?? '')} in column ${quoted(e.column.name)} reads only with "${separators[0]}"`,
    );
  } else if (separators.length > 1 || undecided.length > 0) {
    const shown = [...decided, ...undecided]
      .map((e) => `${quoted(e.column.name)}: ${quoted(e.example ?? '')}`)
      .join(', ');
    decimalSeparator = ask(`the amounts do not tell the decimal separator (${shown})`, SEPARATORS);
  } else
    decimalSeparator = guess<DecimalSeparator>(
      '.',
      'no amount in the sample shows its decimal separator (whole numbers only); the default',
      SEPARATORS,
    );
  return { decimalSeparator, thousands: thousandsOf(pool, decimalSeparator.value) };
}

function thousandsOf(columns: readonly Column[], separator: DecimalSeparator | undefined): Inferred<string> {
  if (separator === undefined) return ask('depends on the decimal separator');
  const grouping = separator === ',' ? /\d([.' \u00a0])\d{3}(?!\d)/ : /\d([,' \u00a0])\d{3}(?!\d)/;
  for (const column of columns) {
    if (readAll(column.values, separator) === undefined) continue;
    for (const value of column.values) {
      const found = grouping.exec(value);
      if (found) return sure(found[1] as string, `grouped thousands, e.g. ${quoted(value)} (read as is)`);
    }
  }
  return guess('', 'no grouped thousands in the sample (they would be read as well)');
}
