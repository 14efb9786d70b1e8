import { guess, type Inferred, quoted } from './inferred.js';

/** A cell that names a balance or total line (Endsaldo, Anfangssaldo, Kontostand, Summe, Total). */
const BALANCE =
  /^(?:(?:end|anfangs|schluss|alter|neuer)?saldo|kontostand|summe|gesamt|total|balance|closing balance|opening balance)\b/i;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The data rows that are balance or total lines, and the `skipRowsMatching` that leaves them out. */
export interface BalanceRows {
  /** The rows that are records. */
  records: readonly (readonly string[])[];
  skipRowsMatching?: Inferred<string[]>;
}

/**
 * Balance and total lines inside the table (ACME's `;;;;Endsaldo;1.234,56;H`): some cells are
 * empty, one names a balance, and the first is empty or that name. They are no records: left out of what the other inferences
 * read, and a `skipRowsMatching` pattern per kind of line is suggested (a guess), written as
 * csv-reader matches it: the row's cells joined by the delimiter, `^;*Endsaldo`.
 */
export function balanceRows(rows: readonly (readonly string[])[], delimiter: string): BalanceRows {
  const patterns = new Map<string, string>();
  const records = rows.filter((cells) => {
    const filled = cells.filter((c) => c.trim() !== '');
    const name = filled.find((c) => BALANCE.test(c.trim()));
    // A record may say "Saldo" in its text; a balance line has no first cell (an ID, a date) but the word.
    const first = (cells[0] ?? '').trim();
    if (name === undefined || filled.length === cells.length || (first !== '' && first !== name.trim()))
      return true;
    const word = (BALANCE.exec(name.trim()) as RegExpExecArray)[0];
    patterns.set(word, name);
    return false;
  });
  if (patterns.size === 0) return { records };
  return {
    records,
    skipRowsMatching: guess(
      [...patterns.keys()].map((word) => `^${escapeRegExp(delimiter)}*${escapeRegExp(word)}`),
      `${rows.length - records.length} row(s) are balance or total lines, not records (${[...patterns.values()].map(quoted).join(', ')})`,
    ),
  };
}
