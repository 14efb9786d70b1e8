import { INVOICE_TYPES } from '../contract/enums.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import { type Column, refOf } from './columns.js';
import { ask, guess, type Inferred, quoted } from './inferred.js';
import { bestNamed } from './mapping.js';
import { INVOICE_TYPE_NAMES, normalName, PURCHASE_NAMES, SALES_NAMES } from './names.js';
import { valueMapOf } from './value-map.js';

type Side = 'SALES' | 'PURCHASE';
type Document = 'INVOICE' | 'CREDIT_NOTE';

/** Words for a document, by their normal name (names.ts); the side is the contact column's. */
const DOCUMENT_WORDS: Readonly<Record<string, Document>> = {
  invoice: 'INVOICE',
  inv: 'INVOICE',
  rechnung: 'INVOICE',
  re: 'INVOICE',
  rg: 'INVOICE',
  creditnote: 'CREDIT_NOTE',
  credit: 'CREDIT_NOTE',
  creditmemo: 'CREDIT_NOTE',
  cn: 'CREDIT_NOTE',
  gutschrift: 'CREDIT_NOTE',
  gs: 'CREDIT_NOTE',
  storno: 'CREDIT_NOTE',
  stornorechnung: 'CREDIT_NOTE',
  rechnungskorrektur: 'CREDIT_NOTE',
  korrekturrechnung: 'CREDIT_NOTE',
};

/** Words that say the side themselves (an outgoing invoice is a sale, an incoming one a purchase). */
const SIDED_WORDS: Readonly<Record<string, string>> = {
  ausgangsrechnung: 'SALES_INVOICE',
  ar: 'SALES_INVOICE',
  ausgangsgutschrift: 'SALES_CREDIT_NOTE',
  eingangsrechnung: 'PURCHASE_INVOICE',
  er: 'PURCHASE_INVOICE',
  eingangsgutschrift: 'PURCHASE_CREDIT_NOTE',
  salesinvoice: 'SALES_INVOICE',
  salescreditnote: 'SALES_CREDIT_NOTE',
  purchaseinvoice: 'PURCHASE_INVOICE',
  purchasecreditnote: 'PURCHASE_CREDIT_NOTE',
};

/** The type column's words as the service's types, for a side. */
const wordsOf = (side: Side): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(DOCUMENT_WORDS).map(([word, doc]) => [word, `${side}_${doc}`])),
  ...SIDED_WORDS,
});
const vocabularyOf = (side: Side) => ({
  noun: ['invoice type', 'invoice types'] as const,
  values: INVOICE_TYPES,
  words: wordsOf(side),
});

/**
 * An invoice's required type. A column named as the document type (Belegart, type) whose values
 * are the service's types is read as it is; one of known words (Rechnung, Gutschrift, credit_note)
 * gets a value map (valueMapOf) on the contact column's side; without a side, or with a value no
 * word is known for, it is asked. Without a type column: a constant from the contact column's
 * name (a customer's invoices are sales, a supplier's purchases), else asked. A side read from a
 * column name is never sure.
 */
export function inferInvoiceType(
  columns: readonly Column[],
  contact: Column | undefined,
  taken: ReadonlySet<Column> = new Set(),
): Inferred<FieldMapping> {
  const name = contact ? normalName(contact.name) : '';
  const side: Side | undefined =
    contact && SALES_NAMES.test(name)
      ? 'SALES'
      : contact && PURCHASE_NAMES.test(name)
        ? 'PURCHASE'
        : undefined;
  const sideReason = contact
    ? `the contact column ${quoted(contact.name)} names ${side === 'SALES' ? 'customers' : 'suppliers'}`
    : '';
  const typed = bestNamed(columns, INVOICE_TYPE_NAMES, taken);
  if (typed && typed.tied.length === 0 && typed.column.values.length > 0) {
    const ref = refOf(typed.column, columns);
    if (side) {
      const mapped = valueMapOf(typed.column, ref, vocabularyOf(side));
      return mapped.certainty === 'guess'
        ? { ...mapped, reason: `${mapped.reason}; ${side.toLowerCase()}: ${sideReason}` }
        : mapped;
    }
    const [sales, purchase] = [
      valueMapOf(typed.column, ref, vocabularyOf('SALES')),
      valueMapOf(typed.column, ref, vocabularyOf('PURCHASE')),
    ];
    if (sales.certainty === 'sure') return sales;
    // A value no word is known for: asked, naming it, with the maps of both sides to complete.
    if (sales.certainty === 'ask')
      return { ...sales, candidates: [...(sales.candidates ?? []), ...(purchase.candidates ?? [])] };
    // Words that say their side themselves (Ausgangsrechnung): no side to choose.
    if (JSON.stringify(sales.value) === JSON.stringify(purchase.value)) return sales;
    return ask(
      `sales or purchase? column ${quoted(typed.column.name)} says invoice or credit note (${[...new Set(typed.column.values)].map((v) => quoted(v)).join(', ')}), but no column says whose: choose the map`,
      [sales.value as FieldMapping, purchase.value as FieldMapping],
    );
  }
  const candidates: FieldMapping[] = [{ const: 'SALES_INVOICE' }, { const: 'PURCHASE_INVOICE' }];
  if (side) return guess({ const: `${side}_INVOICE` }, sideReason, candidates);
  return ask(
    'sales or purchase invoices? the export does not say (credit notes: SALES_CREDIT_NOTE, PURCHASE_CREDIT_NOTE)',
    candidates,
  );
}
