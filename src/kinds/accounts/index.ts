import { type KindDefinition, NO_CHUNK_SETTINGS } from '../definition.js';
import { ACCOUNT_FIELDS } from './fields.js';
import { heldAccounts } from './held.js';
import { AccountPayload } from './payload.js';
import { syncAccountsChunk } from './strategy.js';

export const accounts: KindDefinition<AccountPayload> = {
  chunk: NO_CHUNK_SETTINGS,
  description:
    'customer accounts of the partner with their initial admin, upserted by externalId; only companyName is updated (`mode`; no `accountId`)',
  fields: ACCOUNT_FIELDS,
  create: AccountPayload,
  // externalId is required, so no ID is ever derived; were one, the admin's email would name the
  // account (one user per email in the whole service), never the company name, which may change.
  identityFields: ['adminEmail'],
  sendsExternalId: true,
  scope: 'partner',
  sync: syncAccountsChunk,
  predict: heldAccounts,
};
