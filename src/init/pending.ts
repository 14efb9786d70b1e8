import type { RowFilter } from '../sources/row-filter.js';
import { type Column, columnRefOf } from './columns.js';
import { guess, type Inferred, quoted } from './inferred.js';

/** A cell that says the booking is not booked yet (Sparkasse's `Umsatz vorgemerkt`, "pending"). */
const PENDING = /vorgemerkt|nicht gebucht|pending|not booked|unbooked|vormerkung/i;

/**
 * Rows to leave out (`exclude`): bookings a bank marks as not booked yet come back booked in a
 * later export, so a feed usually skips them. A column holding such a marker beside other values
 * gives one `equals` per marker. Always a guess (a person may want them).
 */
export function inferExclude(columns: readonly Column[]): Inferred<RowFilter[]> | undefined {
  for (const column of columns) {
    const markers = [...new Set(column.values.filter((v) => PENDING.test(v)))];
    if (markers.length === 0 || markers.length === new Set(column.values).size) continue;
    const ref = columnRefOf(column, columns);
    return guess(
      markers.map((equals) => ({ column: ref, equals })),
      `column ${quoted(column.name)} marks bookings not booked yet (${markers.map(quoted).join(', ')}): they come back booked in a later export`,
    );
  }
  return undefined;
}
