import { BankAccountCreate } from '../../contract/index.js';
import type { KindDefinition } from '../definition.js';
import { BANK_ACCOUNT_FIELDS } from './fields.js';
import { syncBankAccountsChunk } from './strategy.js';

export const bankAccounts: KindDefinition<BankAccountCreate> = {
  description: 'bank accounts of provider PARTNER, upserted by externalId (`mode`, `emptyCellClears`)',
  fields: BANK_ACCOUNT_FIELDS,
  create: BankAccountCreate,
  amountField: 'balanceReference',
  identityFields: ['accountName', 'accountNumber', 'bankName', 'iban'],
  sendsExternalId: true,
  sync: syncBankAccountsChunk,
};
