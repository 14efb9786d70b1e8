import { ACCOUNT_FIELD, ACCOUNT_FIELD_SPEC, type KindFields } from '../../sources/field-spec.js';

/**
 * The create fields of a user (the contract's CreateUserRequest). role defaults to USER: the
 * account's admin comes with the account, the users a feed adds are its ordinary members. Without
 * companyId a user joins the account's only company (directory.ts). Also what a user PATCH
 * compares by (strategy.ts). accountExternalId names the record's account (account-route.ts).
 */
export const USER_FIELDS: KindFields = {
  externalId: { type: 'string' },
  email: { type: 'string', required: true },
  firstName: { type: 'string', required: true },
  lastName: { type: 'string', required: true },
  role: { type: 'string', implicit: 'USER' },
  language: { type: 'string' },
  companyId: { type: 'integer' },
  [ACCOUNT_FIELD]: ACCOUNT_FIELD_SPEC,
};
