import { UpdateUserRequest, type User } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { rereadListed, updateConfirmed } from '../../sync/writes/confirmed-writes.js';
import { changedFields, type UpsertOptions } from '../../sync/writes/field-diff.js';
import { syncListedUpsert } from '../../sync/writes/listed-upsert.js';
import { createUser } from './create.js';
import { UserDirectory } from './directory.js';
import { USER_PATCH_RULES, unchangeableDifferences } from './patch.js';
import type { UserRecord } from './payload.js';

const REFUSALS: Record<string, Refusal> = {
  USER_NOT_FOUND: {
    outcome: 'failed',
    advice: 'the user was deleted in the service while this chunk synced; the next run creates it again',
  },
};

/**
 * Upserts one chunk of users of the feed's account by externalId (syncListedUpsert: listed once,
 * created one by one, never twice):
 * - missing: created (see create.ts for ambiguous answers and conflicts); USER_EMAIL_ALREADY_EXISTS
 *   rejects the record with the reason, MAX_USERS_REACHED stops the run (the account's remaining
 *   users are not sent);
 * - existing: only the fields a partner may change (firstName, lastName) are PATCHed when they
 *   differ, unchanged users skipped; a difference in a field the API does not let a partner change
 *   (email, role, language, companyId) is named in the message. No field of the update body is
 *   nullable, so emptyCellClears has nothing to clear for users.
 */
export function syncUsersChunk(
  records: readonly UserRecord[],
  options: UpsertOptions,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return syncListedUpsert(records, options, ctx, {
    kind: 'users',
    what: 'user',
    where: 'in the account',
    read: () => UserDirectory.read(ctx),
    find: (directory, record) => directory.find(record.externalId),
    id: (user) => user.id,
    existing: (record, user, directory) => syncExisting(record, user, options, ctx, directory),
    create: (record, directory, existing) => createUser(record, ctx, directory, existing),
  });
}

/** The outcome of a record whose externalId a user of the account already carries (mode not insert). */
async function syncExisting(
  record: UserRecord,
  user: User,
  options: UpsertOptions,
  ctx: ChunkContext,
  directory: UserDirectory,
): Promise<OutcomeFields> {
  const outcome = await updateConfirmed(ctx, user, {
    operation: 'updateUser',
    id: (current) => current.id,
    refusals: REFUSALS,
    patchOf: (current) => {
      const patch = changedFields(record.payload, current, USER_PATCH_RULES, options);
      return Object.keys(patch).length === 0 ? undefined : UpdateUserRequest.parse(patch);
    },
    send: (current, patch) => ctx.client.updateUser(ctx.accountId, current.id, patch, { signal: ctx.signal }),
    // PATCH sets fields, so an ambiguous one is re-read and compared again instead of resent blindly.
    reread: rereadListed('user', 'USER_NOT_FOUND', () => directory.refind(record.externalId)),
  });
  const note = unchangeableDifferences(record.payload, user, options);
  return note === undefined ? outcome : { ...outcome, message: `${outcome.message}; ${note}` };
}
