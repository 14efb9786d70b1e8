import type { InvoiceCreate, InvoiceTypeFilter, InvoiceUpdate } from '../../contract/index.js';
import { invoiceTypeFilterOf } from '../../contract/index.js';
import { conflict, notFound } from '../fault.js';
import type { AccountRecord, InvoiceRecord, SandboxState } from '../state.js';

/**
 * Invoice records and their externalId index. The index is derived from `account.invoices`, built
 * on first use per account (so seeded invoices are covered) and kept up to date by create and
 * delete (PATCH cannot change externalId). A WeakMap lets a reset or a deleted account drop it.
 * externalIds are not unique: one externalId may map to several invoices.
 */
const indexes = new WeakMap<AccountRecord, Map<string, Map<number, InvoiceRecord>>>();

function indexOf(account: AccountRecord): Map<string, Map<number, InvoiceRecord>> {
  let index = indexes.get(account);
  if (!index) {
    index = new Map();
    indexes.set(account, index);
    for (const invoice of account.invoices.values()) addToIndex(index, invoice);
  }
  return index;
}

function addToIndex(index: Map<string, Map<number, InvoiceRecord>>, invoice: InvoiceRecord): void {
  if (invoice.externalId === null) return;
  let byId = index.get(invoice.externalId);
  if (!byId) {
    byId = new Map();
    index.set(invoice.externalId, byId);
  }
  byId.set(invoice.id, invoice);
}

/** Invoices of the filter's types carrying one of the externalIds, in id order, each once. */
export function invoicesByExternalIds(
  account: AccountRecord,
  externalIds: readonly string[],
  filter: InvoiceTypeFilter,
): InvoiceRecord[] {
  const index = indexOf(account);
  const found = new Map<number, InvoiceRecord>();
  for (const externalId of externalIds) {
    for (const invoice of index.get(externalId)?.values() ?? []) {
      if (invoiceTypeFilterOf(invoice.invoiceType) === filter) found.set(invoice.id, invoice);
    }
  }
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/**
 * Never de-duplicates by externalId: a second create with the same externalId makes a second
 * invoice. `origin` is API for the partner surface; a seed may place ERP-synced invoices.
 */
export function insertInvoice(
  state: SandboxState,
  account: AccountRecord,
  input: InvoiceCreate,
  origin: InvoiceRecord['origin'] = 'API',
): InvoiceRecord {
  const record: InvoiceRecord = {
    id: state.nextId(),
    externalId: input.externalId ?? null,
    invoiceType: input.invoiceType,
    invoiceStatus: input.invoiceStatus ?? null,
    invoiceNumber: input.invoiceNumber,
    contactName: input.contactName,
    totalGrossAmount: input.totalGrossAmount,
    openAmount: input.openAmount ?? null,
    invoiceDate: input.invoiceDate ?? null,
    dueDate: input.dueDate ?? null,
    paidDate: input.paidDate ?? null,
    note: input.note ?? null,
    categoryId: input.categoryId ?? null,
    origin,
  };
  const index = indexOf(account);
  account.invoices.set(record.id, record);
  addToIndex(index, record);
  return record;
}

export function removeInvoice(account: AccountRecord, invoice: InvoiceRecord): void {
  account.invoices.delete(invoice.id);
  if (invoice.externalId !== null) indexOf(account).get(invoice.externalId)?.delete(invoice.id);
}

/** An invoice whose type the filter covers (SALE: SALES_*, PURCHASE: PURCHASE_*); any other is 404. */
export function invoiceOr404(account: AccountRecord, id: number, filter: InvoiceTypeFilter): InvoiceRecord {
  const invoice = account.invoices.get(id);
  if (!invoice || invoiceTypeFilterOf(invoice.invoiceType) !== filter) {
    throw notFound(
      'INVOICE_NOT_FOUND',
      `Invoice ${id} does not exist in account ${account.id} under invoiceTypeFilter ${filter}; ` +
        'check the id and that the filter matches the invoice type (SALE: SALES_*, PURCHASE: PURCHASE_*)',
    );
  }
  return invoice;
}

/** Invoices from an ERP integration are read-only for the partner interface. */
export function requireApiInvoice(invoice: InvoiceRecord, action: string): void {
  if (invoice.origin !== 'API') {
    throw conflict(
      'INVOICE_NOT_MODIFIABLE',
      `Invoice ${invoice.id} comes from an ERP integration and is read-only; it cannot be ${action}`,
    );
  }
}

/** Applies only the fields the PATCH carries; null clears a nullable field. */
export function applyInvoiceUpdate(invoice: InvoiceRecord, update: InvoiceUpdate): void {
  if (update.invoiceDate !== undefined) invoice.invoiceDate = update.invoiceDate;
  if (update.dueDate !== undefined) invoice.dueDate = update.dueDate;
  if (update.paidDate !== undefined) invoice.paidDate = update.paidDate;
  if (update.invoiceNumber !== undefined) invoice.invoiceNumber = update.invoiceNumber;
  if (update.contactName !== undefined) invoice.contactName = update.contactName;
  if (update.totalGrossAmount !== undefined) invoice.totalGrossAmount = update.totalGrossAmount;
  if (update.invoiceStatus !== undefined) invoice.invoiceStatus = update.invoiceStatus;
  if (update.openAmount !== undefined) invoice.openAmount = update.openAmount;
  if (update.note !== undefined) invoice.note = update.note;
  if (update.categoryId !== undefined) invoice.categoryId = update.categoryId;
}
