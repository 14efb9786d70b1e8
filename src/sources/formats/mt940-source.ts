import * as z from 'zod';
import { statementSourceKeys } from './shared-keys.js';

/**
 * An MT940/MT942 source's keys: a statement format's. Amounts and dates are read by the format
 * itself (decimal comma, YYMMDD).
 */
export const Mt940Source = z.strictObject({
  format: z.literal('mt940'),
  ...statementSourceKeys,
  /** MT942 entries are pending (not booked): left out unless this is true. */
  includePending: z.boolean().default(false),
});
export type Mt940Source = z.output<typeof Mt940Source>;
