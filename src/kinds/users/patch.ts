import { UpdateUserRequest, type User } from '../../contract/index.js';
import { patchRules, sameValue, type UpsertOptions } from '../../sync/writes/field-diff.js';
import { USER_FIELDS } from './fields.js';
import type { UserPayload } from './payload.js';

/** What a user PATCH may carry: the contract's UpdateUserRequest (firstName, lastName). */
export const USER_PATCH_RULES = patchRules(USER_FIELDS, UpdateUserRequest, ['externalId']);

/** Fields a record sets that a partner cannot change after the create (externalId is the match). */
const FIXED = Object.keys(USER_FIELDS).filter(
  (field) => field !== 'externalId' && !USER_PATCH_RULES.fields.includes(field),
);

/**
 * The fields (email, role, language, companyId) where the record and the service differ though the
 * partner API cannot change them, as a note for the outcome's message; undefined when none differ.
 * An unmapped create-time default (role USER) says nothing about an existing user and is left out.
 */
export function unchangeableDifferences(
  wanted: UserPayload,
  held: User,
  options: UpsertOptions,
): string | undefined {
  const values: Readonly<Record<string, unknown>> = wanted;
  const service: Readonly<Record<string, unknown>> = held;
  const differing = FIXED.filter((field) => {
    const spec = USER_FIELDS[field];
    if (values[field] === undefined) return false;
    if (spec?.implicit !== undefined && !options.mappedFields.includes(field)) return false;
    return !sameValue(spec?.type, values[field], service[field]);
  });
  if (differing.length === 0) return undefined;
  const list = differing.map(
    (f) => `${f} (service: ${String(service[f] ?? '')}, record: ${String(values[f])})`,
  );
  return `differs where the partner API cannot change a user, change it in the service: ${list.join(', ')}`;
}
