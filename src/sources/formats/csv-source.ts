import * as z from 'zod';
import { checkPatterns, textSourceKeys } from './shared-keys.js';

/** A CSV source's keys with their defaults and checks. */
export const CsvSource = z
  .strictObject({
    format: z.literal('csv'),
    ...textSourceKeys,
    delimiter: z.string().min(1).max(2).default(','),
    quote: z.string().length(1).default('"'),
    /** Preamble before the header row: skip a fixed number of lines, or up to the first line matching a pattern. */
    skipLines: z.int().nonnegative().default(0),
    headerPattern: z.string().optional(),
    /** Data rows whose text matches one of these patterns are not records (balances, footers). */
    skipRowsMatching: z.array(z.string()).default([]),
    /** Trailing lines that are never records (e.g. a closing balance line). */
    skipFooterLines: z.int().nonnegative().default(0),
    /**
     * Largest CSV row in bytes (UTF-8): a longer row (an oversized cell, a quote never closed) is
     * rejected alone with its line and reading goes on at the next line. docs/reading-exports.md.
     */
    maxRowBytes: z
      .int()
      .positive()
      .default(1024 * 1024),
  })
  .superRefine((source, ctx) =>
    checkPatterns(
      [
        ['headerPattern', source.headerPattern],
        ...source.skipRowsMatching.map((p, i) => [`skipRowsMatching.${i}`, p] as const),
      ],
      ctx,
    ),
  );
export type CsvSource = z.output<typeof CsvSource>;
