import { z } from 'zod';
import { textSourceKeys } from './shared-keys.js';

/**
 * An MT940/MT942 source's keys. Amounts and dates are read by the format itself (decimal comma,
 * YYMMDD), and its cells carry them as `-20.00` and `2019-02-18`: `decimalSeparator` and
 * `dateFormat` are fixed to that (they still apply to constants of a feed's mapping).
 */
export const Mt940Source = z.strictObject({
  format: z.literal('mt940'),
  ...textSourceKeys,
  decimalSeparator: z.literal('.').default('.'),
  dateFormat: z.literal('yyyy-MM-dd').default('yyyy-MM-dd'),
  /** MT942 entries are pending (not booked): left out unless this is true. */
  includePending: z.boolean().default(false),
});
export type Mt940Source = z.output<typeof Mt940Source>;
