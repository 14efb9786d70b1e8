import type { FieldMapping } from '../sources/field-mapping.js';
import type { Column } from './columns.js';
import { ask, guess, type Inferred, quoted } from './inferred.js';
import { normalName, PURCHASE_NAMES, SALES_NAMES } from './names.js';

/**
 * An invoice's required type, which an export rarely has as a column: a constant guessed from
 * the contact column's name (a customer's invoices are sales, a supplier's purchases), else asked.
 */
export function inferInvoiceType(contact: Column | undefined): Inferred<FieldMapping> {
  const candidates: FieldMapping[] = [{ const: 'SALES_INVOICE' }, { const: 'PURCHASE_INVOICE' }];
  const name = contact ? normalName(contact.name) : '';
  if (contact && SALES_NAMES.test(name))
    return guess(
      { const: 'SALES_INVOICE' },
      `the contact column ${quoted(contact.name)} names customers`,
      candidates,
    );
  if (contact && PURCHASE_NAMES.test(name))
    return guess(
      { const: 'PURCHASE_INVOICE' },
      `the contact column ${quoted(contact.name)} names suppliers`,
      candidates,
    );
  return ask(
    'sales or purchase invoices? the export does not say (credit notes: SALES_CREDIT_NOTE, PURCHASE_CREDIT_NOTE)',
    candidates,
  );
}
