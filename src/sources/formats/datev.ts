import { readDatev } from './datev-reader.js';
import { DatevSource } from './datev-source.js';
import type { SourceFormat } from './source-format.js';

/**
 * DATEV EXTF/DTVF "Buchungsstapel" (booking batch) exports. Accounting entries, not bank entries:
 * which of them are cash movements depends on the chart of accounts, so there is no default
 * mapping; a feed maps the columns and the added cells (docs/reading-exports.md).
 */
export const datevFormat: SourceFormat<typeof DatevSource> = {
  schema: DatevSource,
  read: readDatev,
  position: 'line',
  fixedDates: true,
  leastContent: () =>
    'a DATEV booking batch has at least its meta header (line 1) and column names (line 2); a batch with nothing booked has those alone',
  docs: 'DATEV EXTF "Buchungsstapel" (booking batch, format category 21): line 1 the meta header, line 2 the column names, every further line a booking, with the added cells `signedAmount`, `documentDate` and `currency`',
};
