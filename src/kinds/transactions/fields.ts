import type { KindFields } from '../../sources/field-spec.js';

export const TRANSACTION_FIELDS: KindFields = {
  externalId: { type: 'string' },
  bookingDate: { type: 'date', required: true },
  valueDate: { type: 'date' },
  amount: { type: 'amount', required: true },
  currency: { type: 'string' },
  purpose: { type: 'string' },
  counterpartyName: { type: 'string' },
  counterpartyIban: { type: 'string' },
  categoryId: { type: 'integer' },
};
