import type { KindFields } from '../../sources/field-spec.js';

/**
 * A customer account as the create-account body carries it, flat: the account's externalId and
 * company name, and its initial admin user (`admin*`, the body's `user` object; the service makes
 * it ADMIN). Only companyName can change later (the update-account body); the admin fields are read
 * for the create only.
 */
export const ACCOUNT_FIELDS: KindFields = {
  externalId: { type: 'string', required: true },
  companyName: { type: 'string', required: true },
  adminExternalId: { type: 'string', required: true },
  adminEmail: { type: 'string', required: true },
  adminFirstName: { type: 'string', required: true },
  adminLastName: { type: 'string', required: true },
  adminLanguage: { type: 'string' },
};
