import { BankAccountCreate } from '../../contract/index.js';
import { listedScope } from '../../sync/reconcile/held.js';
import { type KindDefinition, NO_CHUNK_SETTINGS } from '../definition.js';
import { BANK_ACCOUNT_FIELDS } from './fields.js';
import { syncBankAccountsChunk } from './strategy.js';

export const bankAccounts: KindDefinition<BankAccountCreate> = {
  chunk: NO_CHUNK_SETTINGS,
  description: 'bank accounts of provider PARTNER, upserted by externalId (`mode`, `emptyCellClears`)',
  fields: BANK_ACCOUNT_FIELDS,
  create: BankAccountCreate,
  amountField: 'balanceReference',
  identityFields: ['accountName', 'accountNumber', 'bankName', 'iban'],
  sendsExternalId: true,
  sync: syncBankAccountsChunk,
  reconcile: (_feed, ctx) =>
    Promise.resolve(
      listedScope(`bank accounts of account ${ctx.accountId}`, () =>
        ctx.client.listBankAccounts(ctx.accountId, { signal: ctx.signal }),
      ),
    ),
};
