import { z } from 'zod';
import { checkPatterns, sharedSourceKeys } from './shared-keys.js';

/**
 * An xlsx source's keys. `decimalSeparator` and `dateFormat` describe its text cells; number and
 * date cells are typed and reach the mapper written in those same formats (xlsx-cell.ts).
 */
export const XlsxSource = z
  .strictObject({
    format: z.literal('xlsx'),
    ...sharedSourceKeys,
    /** The sheet's name as its tab shows it; the first sheet when left out. */
    sheet: z.string().min(1).optional(),
    /** The header's row number (1-based, as Excel shows it); else the first non-empty row. */
    headerRow: z.int().positive().optional(),
    /** Or the first row whose text (cells joined by tabs) matches this pattern is the header. */
    headerPattern: z.string().optional(),
    /** Data rows whose text matches one of these patterns are not records (totals, notes). */
    skipRowsMatching: z.array(z.string()).default([]),
  })
  .superRefine((source, ctx) => {
    if (source.headerRow !== undefined && source.headerPattern !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['headerPattern'],
        message: 'give headerRow or headerPattern, not both',
      });
    checkPatterns(
      [
        ['headerPattern', source.headerPattern],
        ...source.skipRowsMatching.map((p, i) => [`skipRowsMatching.${i}`, p] as const),
      ],
      ctx,
    );
  });
export type XlsxSource = z.output<typeof XlsxSource>;
