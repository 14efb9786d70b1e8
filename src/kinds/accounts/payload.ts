import * as z from 'zod';
import { type CreateAccountRequest, InitialUser } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';

const admin = InitialUser.shape;

/** What one source record becomes: the create-account body with its `user` flattened to `admin*` fields. */
export const AccountPayload = z.strictObject({
  externalId: z.string().min(1),
  companyName: z.string().min(1),
  adminExternalId: admin.externalId,
  adminEmail: admin.email,
  adminFirstName: admin.firstName,
  adminLastName: admin.lastName,
  adminLanguage: admin.language,
});
export type AccountPayload = z.output<typeof AccountPayload>;

export type AccountRecord = MappedRecord<AccountPayload>;

/** The create-account body of a record. */
export function createBodyOf(payload: AccountPayload): CreateAccountRequest {
  const user = {
    externalId: payload.adminExternalId,
    email: payload.adminEmail,
    firstName: payload.adminFirstName,
    lastName: payload.adminLastName,
    ...(payload.adminLanguage === undefined ? {} : { language: payload.adminLanguage }),
  };
  return { externalId: payload.externalId, companyName: payload.companyName, user };
}
