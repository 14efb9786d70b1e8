import type { FieldMapping } from '../sources/field-mapping.js';
import { type Column, columnRefOf } from './columns.js';
import { quoted } from './inferred.js';
import { rankOf, SIGN_NAMES } from './names.js';

/** Pairs of markers a sign column holds (negative first), compared in upper case as field-plan.ts does. */
const SIGN_PAIRS: readonly (readonly [string, string])[] = [
  ['S', 'H'],
  ['D', 'C'],
  ['DR', 'CR'],
  ['DBIT', 'CRDT'],
  ['SOLL', 'HABEN'],
  ['DEBIT', 'CREDIT'],
  ['-', '+'],
];
/** The mapping's default marker lists (field-mapping.ts): a pair within them needs no lists written. */
const DEFAULT_NEGATIVE = ['S', 'D', '-'];
const DEFAULT_POSITIVE = ['H', 'C', '+'];

/** A column whose values are sign markers, with the pair they come from. */
export interface SignColumn {
  column: Column;
  pair: readonly [string, string];
  /** Its name says so (S/H, Soll/Haben, D/C...), beside its values. */
  named: boolean;
}

/** The columns whose every value is a marker of one pair (at least one value). */
export function signColumns(columns: readonly Column[]): SignColumn[] {
  return columns.flatMap((column) => {
    if (column.values.length === 0) return [];
    const upper = new Set(column.values.map((v) => v.toUpperCase()));
    const pair = SIGN_PAIRS.find(([n, p]) => [...upper].every((v) => v === n || v === p));
    if (!pair) return [];
    return [{ column, pair, named: rankOf(column.name, SIGN_NAMES) !== undefined }];
  });
}

/** The `{column, sign: {column}}` mapping of an amount and its sign column, in the feed's syntax. */
export function signedAmount(amount: Column, sign: SignColumn, all: readonly Column[]): FieldMapping {
  const [negative, positive] = sign.pair;
  const defaults = DEFAULT_NEGATIVE.includes(negative) && DEFAULT_POSITIVE.includes(positive);
  return {
    column: columnRefOf(amount, all),
    sign: defaults
      ? { column: columnRefOf(sign.column, all), negative: DEFAULT_NEGATIVE, positive: DEFAULT_POSITIVE }
      : { column: columnRefOf(sign.column, all), negative: [negative], positive: [positive] },
  };
}

/** Why a sign column was taken, for the comment. */
export const signReason = (sign: SignColumn): string =>
  `the sign is in column ${quoted(sign.column.name)} (${sign.pair[0]} negative, ${sign.pair[1]} positive)${sign.named ? '' : ', found by its values only'}`;
