import * as z from 'zod';
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
    /**
     * Caps (docs/reading-exports.md): a cell's text in bytes (a longer one rejects its row; Excel
     * itself holds 32,767 characters), the shared strings part inflated (held whole while the
     * sheet is read), and how many times a part over 1 MiB may inflate (a zip bomb's mark).
     */
    maxCellBytes: z
      .int()
      .positive()
      .default(1024 * 1024),
    maxSharedStringsBytes: z
      .int()
      .positive()
      .default(32 * 1024 * 1024),
    maxCompressionRatio: z.number().positive().default(100),
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
