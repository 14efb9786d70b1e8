import * as z from 'zod';
import { textSourceKeys } from './shared-keys.js';

/**
 * A DATEV source's keys. The delimiter, quote and layout are DATEV's own (`;`, `"`, meta header on
 * line 1, column names on line 2), so there are none to set. Amounts are written with a decimal
 * comma, and the reader's completed document date is ISO: `decimalSeparator` and `dateFormat` are
 * fixed to that (they still apply to constants of a feed's mapping).
 */
export const DatevSource = z.strictObject({
  format: z.literal('datev'),
  ...textSourceKeys,
  decimalSeparator: z.literal(',').default(','),
  dateFormat: z.literal('yyyy-MM-dd').default('yyyy-MM-dd'),
});
export type DatevSource = z.output<typeof DatevSource>;
