import type { RecordKind } from '../kinds/registry.js';
import type { Column } from './columns.js';
import { guess, type Inferred, quoted, sure } from './inferred.js';
import { bestNamed } from './mapping.js';
import { INVOICE_NAMES, type NamePatterns } from './names.js';

/**
 * The kind: as given, else invoices when a column is named like an invoice number and another like
 * a due date, else transactions (most exports are a bank's) — always a guess.
 */
export function inferKind(columns: readonly Column[], given?: RecordKind): Inferred<RecordKind> {
  if (given) return sure(given, 'given (--kind)');
  const number = bestNamed(columns, INVOICE_NAMES.invoiceNumber as NamePatterns);
  const due = bestNamed(columns, INVOICE_NAMES.dueDate as NamePatterns);
  if (number && due)
    return guess<RecordKind>(
      'invoices',
      `columns ${quoted(number.column.name)} and ${quoted(due.column.name)} look like an invoice number and a due date`,
      ['invoices', 'transactions'],
    );
  return guess<RecordKind>('transactions', 'no invoice number and due date columns: a bank export', [
    'transactions',
    'invoices',
  ]);
}
