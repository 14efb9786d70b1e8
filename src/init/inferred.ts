/**
 * One setting `erp-bridge init` inferred from an export, as the feed YAML it writes will show it:
 * the value, how sure the inference is and a line a person can read (the YAML comment beside it).
 *
 * - `sure`: the values of the sample prove it (never given for a name match alone);
 * - `guess`: likely, written into the feed, but a person should look (a name match, a default);
 * - `ask`: the sample cannot tell; no value is chosen (`value` undefined), `candidates` lists what
 *   the person picks from. A wrong date, sign or amount column writes wrong data, so whenever the
 *   sample leaves a doubt about one of those the answer is `ask`, never a silent pick.
 */
export type Certainty = 'sure' | 'guess' | 'ask';

export interface Inferred<T> {
  value: T | undefined;
  certainty: Certainty;
  reason: string;
  /** `ask` (and some guesses): the values the person chooses among. */
  candidates?: readonly T[];
}

export const sure = <T>(value: T, reason: string): Inferred<T> => ({ value, certainty: 'sure', reason });
export const guess = <T>(value: T, reason: string, candidates?: readonly T[]): Inferred<T> =>
  candidates ? { value, certainty: 'guess', reason, candidates } : { value, certainty: 'guess', reason };
export const ask = <T>(reason: string, candidates: readonly T[] = []): Inferred<T> => ({
  value: undefined,
  certainty: 'ask',
  reason,
  candidates,
});

/** The weaker of two certainties (a setting is as sure as the least sure thing it rests on). */
export function weaker(a: Certainty, b: Certainty): Certainty {
  const rank: Record<Certainty, number> = { sure: 2, guess: 1, ask: 0 };
  return rank[a] <= rank[b] ? a : b;
}

/** A cell for a reason: quoted, shortened. */
export const quoted = (text: string): string =>
  JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);
