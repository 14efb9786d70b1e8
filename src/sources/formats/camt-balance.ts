import type { Captured } from './camt-captured.js';
import { amountOf, signed } from './camt-entry.js';
import type { StatementTally } from './statement-totals.js';

const DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Notes one `Bal` of a statement: OPBD (opening booked) and PRCD (previously closed booked, the
 * day before's closing: an opening when there is no OPBD) open it, CLBD (closing booked) closes
 * it. Other types (available, interim, forward balances) are not a booked start or end of the
 * statement and are not read; neither is a balance whose amount, sign or date does not read.
 */
export function noteBalance(balance: Captured, tally: StatementTally): void {
  const type = balance.first('Tp/CdOrPrtry/Cd', 'Tp/Cd');
  if (type !== 'OPBD' && type !== 'PRCD' && type !== 'CLBD') return;
  const read = amountOf(balance, 'Bal');
  const date = balance.first('Dt/Dt', 'Dt/DtTm').slice(0, 10);
  if (typeof read === 'string' || !DATE.test(date)) return;
  const amount = signed(read.amount, read.sign);
  if (type === 'CLBD') tally.balance('closing', { amount, date });
  else if (type === 'OPBD') tally.balance('opening', { amount, date });
  else if (tally.figures.opening === undefined) tally.balance('opening', { amount, date }, true);
}
