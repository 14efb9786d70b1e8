import { UpdateUserRequest, type User } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import { settleChunk } from '../../sync/chunk-outcomes.js';
import { withCreateClaims } from '../../sync/create-claims.js';
import { firstOfEachExternalId } from '../../sync/first-of-each.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { updateConfirmed } from '../../sync/writes/confirmed-writes.js';
import { changedFields, type UpsertOptions } from '../../sync/writes/field-diff.js';
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
 * Upserts one chunk of users of the feed's account by externalId, never creating one twice
 * (docs/once-only.md). The account's users are listed once per chunk; then per record:
 * - a second record with an externalId already in the chunk: rejected (DUPLICATE_IN_SOURCE);
 * - missing: created one by one (no bulk in the API; mode update: rejected NOT_FOUND_FOR_UPDATE),
 *   see create.ts for ambiguous answers and conflicts; USER_EMAIL_ALREADY_EXISTS rejects the record
 *   with the reason, MAX_USERS_REACHED stops the run (the account's remaining users are not sent);
 * - existing: mode insert skips it; otherwise only the fields a partner may change (firstName,
 *   lastName) are PATCHed when they differ, unchanged users skipped; a difference in a field the
 *   API does not let a partner change (email, role, language, companyId) is named in the message.
 *   No field of the update body is nullable, so emptyCellClears has nothing to clear for users.
 */
export function syncUsersChunk(
  records: readonly UserRecord[],
  options: UpsertOptions,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return settleChunk(records, ctx, (out) =>
    // Two runs that both find a user missing would both create it: hold the creates (create-claims.ts).
    withCreateClaims(ctx, 'users', firstOfEachExternalId(records, out), out, async (held) => {
      const directory = await UserDirectory.read(ctx);
      for (const record of held) {
        const user = directory.find(record.externalId);
        const existing = (found: User) => syncExisting(record, found, options, ctx, directory);
        if (user) out.settle(record, await existing(user));
        else if (options.mode === 'update') out.settle(record, notFoundForUpdate(record));
        else out.settle(record, await createUser(record, ctx, directory, existing));
      }
    }),
  );
}

const notFoundForUpdate = (record: UserRecord): OutcomeFields => ({
  outcome: 'rejected',
  code: 'NOT_FOUND_FOR_UPDATE',
  message: `no user with externalId "${record.externalId}" in the account, and the feed's mode is update (update only); create it elsewhere, or set mode upsert`,
});

/** The outcome of a record whose externalId a user of the account already carries. */
async function syncExisting(
  record: UserRecord,
  user: User,
  options: UpsertOptions,
  ctx: ChunkContext,
  directory: UserDirectory,
): Promise<OutcomeFields> {
  if (options.mode === 'insert')
    return { outcome: 'skipped', serviceId: user.id, message: 'exists; feed mode insert' };
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
    reread: async (current) => {
      const again = await directory.refind(record.externalId);
      if (again?.id === current.id) return { state: again };
      const message = `user ${current.id} disappeared from the service while it was being updated; the next run creates it again`;
      return { outcome: { outcome: 'failed', code: 'USER_NOT_FOUND', message } };
    },
  });
  const note = unchangeableDifferences(record.payload, user, options);
  return note === undefined ? outcome : { ...outcome, message: `${outcome.message}; ${note}` };
}
