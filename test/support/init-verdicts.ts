import type { CsvInference } from '../../src/init/infer-csv.js';
import type { Inferred } from '../../src/init/inferred.js';

/**
 * How an inference compares with the feed a person wrote for the same export: per setting, right
 * (as inferred, sure or guessed), asked, guessed wrong, or — what must never happen — sure and
 * wrong. Shared by the tests on the shipped demo exports and on the other projects' samples
 * (npm run test:samples).
 */

/** The settings that read an export right: per key, every value that does (equivalent ones too). */
export type Right = Record<string, readonly unknown[]>;

export type Verdict = 'right' | 'asked' | 'guessed wrong' | 'SURE AND WRONG';

/** Every inferred setting of an inference, by the keys `Right` uses. */
export function settingsOf(inference: CsvInference): [string, Inferred<unknown>][] {
  const top = [
    'encoding',
    'delimiter',
    'quote',
    'skipLines',
    'headerPattern',
    'skipFooterLines',
    'skipRowsMatching',
    'decimalSeparator',
    'dateFormat',
    'kind',
    'exclude',
  ] as const;
  return [
    ...top.flatMap((key): [string, Inferred<unknown>][] => {
      const setting = inference[key];
      return setting ? [[key, setting]] : [];
    }),
    ...Object.entries(inference.mapping).map(([field, m]): [string, Inferred<unknown>] => [
      `mapping.${field}`,
      m,
    ]),
    ['identity.externalId', inference.identity.externalId],
  ];
}

export function verdictOf(setting: Inferred<unknown>, right: readonly unknown[] | undefined): Verdict {
  if (setting.certainty === 'ask') return 'asked';
  if ((right ?? []).some((r) => JSON.stringify(r) === JSON.stringify(setting.value))) return 'right';
  return setting.certainty === 'sure' ? 'SURE AND WRONG' : 'guessed wrong';
}

/** Each setting's key, verdict and value. */
export const verdictsOf = (inference: CsvInference, right: Right): [string, Verdict, unknown][] =>
  settingsOf(inference).map(([key, setting]) => [key, verdictOf(setting, right[key]), setting.value]);
