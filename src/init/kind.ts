import type { RecordKind } from '../kinds/registry.js';
import type { Column } from './columns.js';
import { guess, type Inferred, quoted, sure } from './inferred.js';
import { bestNamed } from './mapping.js';
import { INVOICE_NAMES, type NamePatterns } from './names.js';

/** Columns that speak for an invoice list: each found adds its name to the evidence. */
const INVOICE_SIGNS = ['invoiceNumber', 'dueDate', 'totalGrossAmount', 'contactName'] as const;

/**
 * The kind: as given, else invoices when a due date column and one more invoice column (invoice
 * number, gross amount, customer or supplier) are named, else transactions (most exports are a
 * bank's) — always a guess.
 */
export function inferKind(columns: readonly Column[], given?: RecordKind): Inferred<RecordKind> {
  if (given) return sure(given, 'given (--kind)');
  const found = INVOICE_SIGNS.flatMap((field) => {
    // The first-rank names only: "Betrag" or "Name" say nothing of invoices.
    const first = (INVOICE_NAMES[field] as NamePatterns).slice(0, 1);
    const hit = bestNamed(
      columns,
      field === 'invoiceNumber' ? (INVOICE_NAMES[field] as NamePatterns) : first,
    );
    return hit ? [{ field, column: hit.column }] : [];
  });
  if (found.length >= 2 && found.some((f) => f.field === 'dueDate' || f.field === 'invoiceNumber'))
    return guess<RecordKind>(
      'invoices',
      `columns ${found.map((f) => quoted(f.column.name)).join(', ')} look like an invoice list`,
      ['invoices', 'transactions'],
    );
  return guess<RecordKind>(
    'transactions',
    'no invoice number or due date beside other invoice columns: a bank export',
    ['transactions', 'invoices'],
  );
}
