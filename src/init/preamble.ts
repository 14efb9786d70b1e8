import type { DecimalSeparator } from '../sources/values/amount.js';
import type { Column } from './columns.js';
import { dateColumns, feedDateFormat } from './dates.js';
import { guess, type Inferred, quoted } from './inferred.js';
import { amountColumns, inferNumberStyle } from './numbers.js';

/** Each preamble cell as a column of its own: its lines have no columns in common. */
const cellsOf = (preamble: readonly (readonly string[])[]): Column[] =>
  preamble.flatMap((line) =>
    line
      .map((cell) => cell.trim())
      .filter((cell) => cell !== '')
      .map((cell) => ({ name: '', position: 0, cells: [cell], values: [cell] })),
  );

/**
 * When the rows show no dates or no separator (an export without bookings), the preamble's own
 * cells may ("Von:";"01.01.2018", "Kontostand";"5.000,01 EUR"): what they prove is written the
 * same way in the rows, most likely, so it is a guess, never sure. Undefined when they show nothing.
 */
export function preambleDateFormat(preamble: readonly (readonly string[])[]): Inferred<string> | undefined {
  const dated = dateColumns(cellsOf(preamble));
  if (dated.length === 0) return undefined;
  const format = feedDateFormat(dated);
  if (format.certainty !== 'sure' || format.value === undefined) return undefined;
  const example = dated[0]?.column.values[0] ?? '';
  return guess(
    format.value,
    `the rows hold no date; the preamble's dates (e.g. ${quoted(example)}) read as ${format.value}`,
  );
}

export function preambleDecimalSeparator(
  preamble: readonly (readonly string[])[],
): Inferred<DecimalSeparator> | undefined {
  const { decimalSeparator } = inferNumberStyle(amountColumns(cellsOf(preamble)));
  if (decimalSeparator.certainty !== 'sure' || decimalSeparator.value === undefined) return undefined;
  return guess(
    decimalSeparator.value,
    `the rows show no decimal separator; the preamble's ${decimalSeparator.reason.replace(/ in column "" /, ' ')}`,
    [',', '.'],
  );
}
