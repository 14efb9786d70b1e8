import * as z from 'zod';
import { statementSourceKeys } from './shared-keys.js';

/**
 * A camt source's keys: a statement format's (ISO 20022 writes a decimal point and ISO dates).
 * `encoding: auto` reads the UTF-8 the camt schemas prescribe.
 */
export const CamtSource = z.strictObject({
  format: z.literal('camt'),
  ...statementSourceKeys,
  /**
   * Entries not (yet) booked, status PDNG, INFO or FUTR, are left out by default and counted as
   * skipped: a pending entry comes back booked, usually with other values. true reads them too.
   */
  includePending: z.boolean().default(false),
  /**
   * Elements of one entry (`Ntry`, its batch details included) or balance: a larger entry is
   * rejected alone (docs/reading-exports.md, "Caps"). A batch of 1,000 transfers has about 40,000.
   * The same cap holds a statement's own elements (outside its entries and balances): past it the
   * statement is refused (SOURCE_TOO_LARGE).
   */
  maxEntryElements: z.int().positive().default(200_000),
});
export type CamtSource = z.output<typeof CamtSource>;
