import type { KindFields } from '../../sources/field-spec.js';

/** Also what a bank account PATCH compares by (strategy.ts). */
export const BANK_ACCOUNT_FIELDS: KindFields = {
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
};
