import { statementTransactions } from './bank-statement.js';
import { readMt940 } from './mt940-reader.js';
import { Mt940Source } from './mt940-source.js';
import type { SourceFormat } from './source-format.js';

/**
 * SWIFT MT940 statements and MT942 interim reports, as German and European banks deliver them.
 * The default mapping to transactions (docs/reading-exports.md): the bank's own reference (after
 * `//` in `:61:`) is the externalId; without one the derived identity applies. The end-to-end
 * reference (EREF+) is not used: a direct debit's return carries the EREF of the debit it returns,
 * and payers reuse theirs (an invoice number paid in two parts), so it names no single entry.
 */
export const mt940Format: SourceFormat<typeof Mt940Source> = {
  schema: Mt940Source,
  read: readMt940,
  position: 'line',
  fixedDates: true,
  leastContent: () =>
    'a statement file has at least one statement (its :20:, :25:, :28C: and balances); a bank with nothing booked sends the statement without entries',
  docs: 'SWIFT MT940 statements and MT942 interim reports (with or without SWIFT blocks): each `:61:` entry with its `:86:` is a record, counted at the line of its `:61:`',
  routeCells: { account: 'account', currency: 'currency' },
  defaultMapping: statementTransactions('bankReference'),
};
