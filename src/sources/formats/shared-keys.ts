import * as z from 'zod';
import { locationSourceKeys } from '../locations/source-keys.js';
import { compileDateFormat } from '../values/date.js';

/** An unsupported dateFormat is a load-time error (file and key), not a rejection of every row. */
function supportedDateFormat(format: string, ctx: z.RefinementCtx): void {
  try {
    compileDateFormat(format);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * A regular expression of a `source` key that does not compile is a load-time error naming its
 * key (`skipRowsMatching.0`), not a crash mid-file.
 */
export function checkPatterns(
  patterns: readonly (readonly [string, string | undefined])[],
  ctx: z.RefinementCtx,
): void {
  for (const [key, pattern] of patterns) {
    if (pattern === undefined) continue;
    try {
      new RegExp(pattern);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        path: key.split('.'),
        message: `not a valid regular expression: ${(error as Error).message}`,
      });
    }
  }
}

/** How an export's bytes become text (docs/encodings.md). */
export const SourceEncoding = z
  .enum(['auto', 'utf-8', 'windows-1252', 'iso-8859-1', 'utf-16le', 'utf-16be'])
  .default('auto');
export type SourceEncoding = z.output<typeof SourceEncoding>;

/** The `source` keys every format has; a format's schema spreads them beside its own. */
export const sharedSourceKeys = {
  /**
   * Glob of the exports: on the local disk relative to the feed file, e.g. exports/acme/bank-*.csv;
   * on a remote location the server's path or the bucket's key pattern, taken as is.
   */
  path: z.string().min(1),
  ...locationSourceKeys,
  decimalSeparator: z.enum([',', '.']).default('.'),
  dateFormat: z.string().min(1).default('yyyy-MM-dd').superRefine(supportedDateFormat),
};

/** The shared keys of a format read as text. */
export const textSourceKeys = {
  ...sharedSourceKeys,
  /** auto (default): a UTF-8 or UTF-16 byte-order mark, else valid UTF-8, else Windows-1252 (docs/encodings.md). */
  encoding: SourceEncoding,
};

/**
 * The shared keys of a bank statement format (camt, MT940/MT942): the format fixes how its values
 * are written and its cells carry them as `-20.00` and `2019-02-18`, so `decimalSeparator` and
 * `dateFormat` accept only that (they still apply to constants of a feed's mapping), and a feed
 * that sets another value is refused at load instead of rejecting every entry.
 */
export const statementSourceKeys = {
  ...textSourceKeys,
  decimalSeparator: z.literal('.').default('.'),
  dateFormat: z.literal('yyyy-MM-dd').default('yyyy-MM-dd'),
};
