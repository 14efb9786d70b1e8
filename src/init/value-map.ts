import type { FieldMapping } from '../sources/field-mapping.js';
import type { Column } from './columns.js';
import { ask, guess, type Inferred, quoted, sure } from './inferred.js';
import { normalName } from './names.js';

/** What a column of words stands for in the service: an invoice status, an invoice type. */
export interface Vocabulary {
  /** The field's values in the reasons, singular and plural: "status", "statuses". */
  noun: readonly [string, string];
  /** The service's own values: read as they are. */
  values: readonly string[];
  /** Words ERPs write, by their normal name (names.ts), and the service's value each means. */
  words: Readonly<Record<string, string>>;
}

/**
 * A column of words for a field the service knows by fixed values: values the service names as
 * it does are read as they are (`sure`); known words get a value map `{column, map}`, as a guess;
 * any other value is asked with the sampled values, never passed on to be rejected row by row.
 */
export function valueMapOf(
  column: Column,
  ref: string | { column: number },
  vocabulary: Vocabulary,
): Inferred<FieldMapping> {
  const [one, many] = vocabulary.noun;
  const distinct = [...new Set(column.values)];
  const own = vocabulary.values;
  if (distinct.every((v) => own.includes(v)))
    return sure(ref, `column ${quoted(column.name)}: its name, and its values are the service's ${many}`);
  const map: Record<string, string> = {};
  const unknown: string[] = [];
  for (const value of distinct) {
    const meant = own.includes(value) ? value : vocabulary.words[normalName(value)];
    if (meant) map[value] = meant;
    else unknown.push(value);
  }
  const at = typeof ref === 'string' ? ref : ref.column;
  if (unknown.length === 0)
    return guess(
      { column: at, map },
      `column ${quoted(column.name)}: its values mapped to the service's ${many} (${Object.entries(map)
        .map(([from, to]) => `${from} → ${to}`)
        .join(', ')}); a value the sample did not show is rejected: add it to the map`,
    );
  return ask(
    `column ${quoted(column.name)} holds ${unknown.map((v) => quoted(v)).join(', ')}, which name no ${one} the service knows (${own.join(', ')}): give the column a map`,
    [{ column: at, map }],
  );
}
