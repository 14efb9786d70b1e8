import type { FieldMapping } from '../sources/field-mapping.js';
import type { Column } from './columns.js';
import { guess, type Inferred, quoted } from './inferred.js';

/** A currency code in a column's name: DKB's `Betrag (EUR)`, `Amount [USD]`, `Umsatz in EUR`. */
const IN_NAME = /(?:[([]|\bin\s)([A-Z]{3})[)\]]?\s*$/;

/**
 * A transaction's currency when no column holds it: the code a column's name carries, as a
 * constant (`{const: EUR}`), a guess. Undefined when no name carries one.
 */
export function currencyFromNames(columns: readonly Column[]): Inferred<FieldMapping> | undefined {
  for (const column of columns) {
    const code = IN_NAME.exec(column.name)?.[1];
    if (code)
      return guess({ const: code }, `no currency column; column ${quoted(column.name)} names ${code}`);
  }
  return undefined;
}
