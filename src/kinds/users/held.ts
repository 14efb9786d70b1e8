import { heldInDirectory } from '../../sync/held-verdict.js';
import { changedFields } from '../../sync/writes/field-diff.js';
import { UserDirectory } from './directory.js';
import { USER_PATCH_RULES } from './patch.js';
import type { UserRecord } from './payload.js';

/**
 * Users: one the account already holds with no changeable field that differs is skipped (mode
 * insert: any existing one); creates, updates and what the real run would refuse count as would-send.
 */
export const heldUsers = heldInDirectory(
  (ctx) => UserDirectory.read(ctx),
  (record: UserRecord) => record.externalId,
  (record, user, settings) =>
    Object.keys(changedFields(record.payload, user, USER_PATCH_RULES, settings)).length === 0,
);
