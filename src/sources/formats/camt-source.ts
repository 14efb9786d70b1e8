import { z } from 'zod';
import { textSourceKeys } from './shared-keys.js';

/**
 * A camt source's keys. The format fixes how values are written (ISO 20022: a decimal point,
 * ISO dates), so `decimalSeparator` and `dateFormat` only accept those: a feed that sets another
 * value is refused at load instead of rejecting every entry. `encoding: auto` reads the UTF-8 the
 * camt schemas prescribe.
 */
export const CamtSource = z.strictObject({
  format: z.literal('camt'),
  ...textSourceKeys,
  decimalSeparator: z.literal('.').default('.'),
  dateFormat: z.literal('yyyy-MM-dd').default('yyyy-MM-dd'),
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
