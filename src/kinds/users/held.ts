import type { ChunkSettings } from '../../sync/chunk-settings.js';
import { type HeldVerdict, heldAs, nothingHeld } from '../../sync/held-verdict.js';
import type { ChunkContext } from '../../sync/ports.js';
import { changedFields } from '../../sync/writes/field-diff.js';
import { UserDirectory } from './directory.js';
import { USER_PATCH_RULES } from './patch.js';
import type { UserRecord } from './payload.js';

/**
 * Users: one the account already holds with no changeable field that differs is skipped (mode
 * insert: any existing one); creates, updates and what the real run would refuse count as would-send.
 */
export async function heldUsers(
  records: readonly UserRecord[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<(record: UserRecord) => HeldVerdict> {
  if (records.length === 0) return nothingHeld;
  const directory = await UserDirectory.read(ctx);
  return (record) =>
    heldAs(
      directory.find(record.externalId),
      settings.mode,
      (user) => Object.keys(changedFields(record.payload, user, USER_PATCH_RULES, settings)).length === 0,
    );
}
