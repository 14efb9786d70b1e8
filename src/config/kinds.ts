/**
 * The record kinds a feed can carry and, per kind, the service fields a mapping may fill:
 * their cell type and whether the service requires them. Data only; the mapper and the
 * feed validation both read it.
 */
export const RECORD_KINDS = ['transactions', 'invoices', 'plans', 'bank-accounts'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export type FieldType = 'string' | 'date' | 'amount' | 'integer' | 'boolean';

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  /** Value used when the mapping does not name the field at all. */
  implicit?: string | number | boolean;
}

export const KIND_FIELDS: Record<RecordKind, Record<string, FieldSpec>> = {
  transactions: {
    externalId: { type: 'string' },
    bookingDate: { type: 'date', required: true },
    valueDate: { type: 'date' },
    amount: { type: 'amount', required: true },
    currency: { type: 'string' },
    purpose: { type: 'string' },
    counterpartyName: { type: 'string' },
    counterpartyIban: { type: 'string' },
    categoryId: { type: 'integer' },
  },
  invoices: {
    externalId: { type: 'string' },
    invoiceType: { type: 'string', required: true },
    invoiceNumber: { type: 'string', required: true },
    contactName: { type: 'string', required: true },
    totalGrossAmount: { type: 'amount', required: true },
    invoiceStatus: { type: 'string' },
    openAmount: { type: 'amount' },
    invoiceDate: { type: 'date' },
    dueDate: { type: 'date' },
    paidDate: { type: 'date' },
    note: { type: 'string' },
    categoryId: { type: 'integer' },
  },
  plans: {
    /** Not sent (plans have no externalId in the API); names the record in reports. */
    externalId: { type: 'string' },
    name: { type: 'string', required: true },
    amount: { type: 'amount', required: true },
    period: { type: 'string', required: true },
    date: { type: 'date', required: true },
    type: { type: 'string', implicit: 'ONE_TIME' },
    categoryId: { type: 'integer' },
    categoryName: { type: 'string' },
    scenarioId: { type: 'integer' },
    scenarioName: { type: 'string' },
    replaceCurrentValuesForThePeriod: { type: 'boolean' },
  },
  'bank-accounts': {
    externalId: { type: 'string', required: true },
    accountName: { type: 'string', required: true },
    bankName: { type: 'string', required: true },
    accountType: { type: 'string', implicit: 'CHECKING' },
    accountCurrency: { type: 'string', implicit: 'EUR' },
    iban: { type: 'string' },
    accountNumber: { type: 'string' },
    balanceReference: { type: 'amount' },
    balanceDate: { type: 'date' },
    visible: { type: 'boolean' },
    companyId: { type: 'integer' },
  },
};
