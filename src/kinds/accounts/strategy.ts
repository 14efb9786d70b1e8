import type { Account } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { rereadListed, updateConfirmed } from '../../sync/writes/confirmed-writes.js';
import type { UpsertOptions } from '../../sync/writes/field-diff.js';
import { syncListedUpsert } from '../../sync/writes/listed-upsert.js';
import { createAccount } from './create.js';
import { AccountDirectory } from './directory.js';
import type { AccountPayload, AccountRecord } from './payload.js';

const REFUSALS: Record<string, Refusal> = {
  ACCOUNT_NOT_FOUND: {
    outcome: 'failed',
    advice: 'the account was deleted in the service while this chunk synced; the next run creates it again',
  },
};

/** The update-account body that brings `held` in line with the record; undefined when nothing differs. */
export function accountPatch(wanted: AccountPayload, held: Account): { companyName: string } | undefined {
  return wanted.companyName === held.companyName ? undefined : { companyName: wanted.companyName };
}

/**
 * Upserts one chunk of the partner's customer accounts by externalId (syncListedUpsert: listed
 * once, created one by one, never twice):
 * - missing: created with its company and initial admin (see create.ts for ambiguous answers and
 *   conflicts);
 * - existing: the company name (the one field a partner may change) is updated when it differs.
 *   The admin fields are for the create: the admin is a user of the account then, kept by a users
 *   feed.
 */
export function syncAccountsChunk(
  records: readonly AccountRecord[],
  options: UpsertOptions,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return syncListedUpsert(records, options, ctx, {
    kind: 'accounts',
    what: 'account',
    where: 'of the partner',
    read: () => AccountDirectory.read(ctx),
    find: (directory, record) => directory.find(record.externalId),
    id: (account) => account.id,
    existing: (record, account, directory) => syncExisting(record, account, ctx, directory),
    create: (record, directory, existing) => createAccount(record, ctx, directory, existing),
  });
}

/** The outcome of a record whose externalId an account of the partner already carries (mode not insert). */
function syncExisting(
  record: AccountRecord,
  account: Account,
  ctx: ChunkContext,
  directory: AccountDirectory,
): Promise<OutcomeFields> {
  return updateConfirmed(ctx, account, {
    operation: 'updateAccount',
    id: (current) => current.id,
    refusals: REFUSALS,
    patchOf: (current) => accountPatch(record.payload, current),
    send: (current, patch) => ctx.client.updateAccount(current.id, patch, { signal: ctx.signal }),
    // PATCH sets the name, so an ambiguous one is re-read and compared again instead of resent blindly.
    reread: rereadListed('account', 'ACCOUNT_NOT_FOUND', () => directory.refind(record.externalId)),
  });
}
