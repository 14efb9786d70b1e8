import { ACCOUNT_FIELD, ACCOUNT_FIELD_SPEC, type KindFields } from '../../sources/field-spec.js';

/**
 * A category as a feed names it: its path from the top level (`Revenue/Consulting`, the last
 * segment its name) and its type. The API gives categories no externalId, so a category is matched
 * by its path; `externalId` only names the record in reports (never sent). accountExternalId names
 * the record's account (account-route.ts).
 */
export const CATEGORY_FIELDS: KindFields = {
  externalId: { type: 'string' },
  path: { type: 'string', required: true },
  type: { type: 'string', required: true },
  [ACCOUNT_FIELD]: ACCOUNT_FIELD_SPEC,
};
