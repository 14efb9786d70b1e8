import { type BankAccount, type BankAccountCreate, BankAccountUpdate } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import { type ChunkOutcomes, settleChunk } from '../../sync/chunk-outcomes.js';
import { withCreateClaims } from '../../sync/create-claims.js';
import { firstOfEachExternalId } from '../../sync/first-of-each.js';
import type { RecordOutcome } from '../../sync/outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { rereadListed, updateConfirmed } from '../../sync/writes/confirmed-writes.js';
import { changedFields, patchRules, type UpsertOptions } from '../../sync/writes/field-diff.js';
import { BANK_ACCOUNT_FIELDS } from './fields.js';
import { ambiguousTarget, createBankAccountConfirmed, listBankAccounts, withExternalId } from './lookup.js';

type BankRecord = MappedRecord<BankAccountCreate>;

/** externalId is what records are matched by: never PATCHed. No update field is nullable. */
const RULES = patchRules(BANK_ACCOUNT_FIELDS, BankAccountUpdate, ['externalId']);

const NOT_PARTNER =
  'the partner API may change only accounts of provider PARTNER: leave this account out of the feed, or give the record another externalId so that erp-bridge manages an account of its own';

const REFUSALS: Record<string, Refusal> = {
  // Not a run stop here (unlike for a transactions feed's target): the other accounts can proceed.
  BANK_ACCOUNT_NOT_MODIFIABLE: { outcome: 'rejected', advice: NOT_PARTNER },
  BANK_ACCOUNT_NOT_FOUND: {
    outcome: 'failed',
    advice:
      'the bank account was deleted in the service while this chunk synced; the next run creates it again',
  },
};

/**
 * balanceReference is the start-of-day balance on balanceDate: one without the other means nothing
 * (the sandbox refuses a half pair), so when either changes both go, as far as the record has them.
 */
function withBalancePair(
  patch: Record<string, unknown>,
  wanted: BankRecord['payload'],
): Record<string, unknown> {
  if (patch.balanceReference === undefined && patch.balanceDate === undefined) return patch;
  return {
    ...patch,
    ...(wanted.balanceReference !== undefined ? { balanceReference: wanted.balanceReference } : {}),
    ...(wanted.balanceDate !== undefined ? { balanceDate: wanted.balanceDate } : {}),
  };
}

/**
 * Creates or updates one chunk of bank accounts by externalId (PARTNER provider). The accounts are
 * listed once per chunk (the list is not paginated); then per record:
 * - a second record with an externalId already in the chunk: rejected (DUPLICATE_IN_SOURCE);
 * - missing: created one by one (no bulk in the API; mode update: rejected NOT_FOUND_FOR_UPDATE);
 *   an ambiguous create is re-listed and looked for before it is resent (1/2/4 s);
 * - existing: mode insert skips it; several accounts with the externalId are rejected
 *   (AMBIGUOUS_TARGET), one of another provider too (BANK_ACCOUNT_NOT_MODIFIABLE, with advice —
 *   not a run stop, the other accounts can proceed); otherwise only the fields that differ are
 *   PATCHed (balanceReference and balanceDate together), unchanged ones skipped. No field of the
 *   update body is nullable, so emptyCellClears has nothing to clear for bank accounts.
 * MAX_BANK_ACCOUNTS_REACHED stops the run (stopFor).
 */
export function syncBankAccountsChunk(
  records: readonly BankRecord[],
  options: UpsertOptions,
  ctx: ChunkContext,
): Promise<RecordOutcome[]> {
  return settleChunk(records, ctx, (out) =>
    // The service does not de-duplicate bank accounts either: hold their creates (create-claims.ts).
    withCreateClaims(ctx, 'bank-accounts', firstOfEachExternalId(records, out), out, (unique) =>
      syncHeld(unique, out),
    ),
  );

  async function syncHeld(unique: BankRecord[], out: ChunkOutcomes<BankRecord>): Promise<void> {
    let accounts = await listBankAccounts(ctx);
    const listed = (fresh: BankAccount[]) => {
      accounts = fresh;
    };
    for (const record of unique) {
      out.settle(record, await syncOne(record, withExternalId(accounts, record.externalId)));
    }

    async function syncOne(record: BankRecord, matches: BankAccount[]): Promise<OutcomeFields> {
      const [account] = matches;
      if (!account) {
        if (options.mode !== 'update')
          return createBankAccountConfirmed(ctx, record.payload, record.externalId, listed);
        return {
          outcome: 'rejected',
          code: 'NOT_FOUND_FOR_UPDATE',
          message: `no bank account with externalId "${record.externalId}" in the service, and the feed's mode is update (update only); create it elsewhere, or set mode upsert`,
        };
      }
      if (options.mode === 'insert')
        return { outcome: 'skipped', serviceId: account.id, message: 'exists; feed mode insert' };
      if (matches.length > 1) return ambiguousTarget(record.externalId, matches);
      if (account.provider !== 'PARTNER') {
        return {
          outcome: 'rejected',
          code: 'BANK_ACCOUNT_NOT_MODIFIABLE',
          serviceId: account.id,
          message: `bank account ${account.id} with externalId "${record.externalId}" is managed by provider ${account.provider}; ${NOT_PARTNER}`,
        };
      }
      return updateConfirmed(ctx, account, {
        operation: 'updateBankAccount',
        id: (current) => current.id,
        refusals: REFUSALS,
        patchOf: (current) => {
          const patch = withBalancePair(
            changedFields(record.payload, current, RULES, options),
            record.payload,
          );
          return Object.keys(patch).length === 0 ? undefined : BankAccountUpdate.parse(patch);
        },
        send: (current, patch) =>
          ctx.client.updateBankAccount(ctx.accountId, current.id, patch, { signal: ctx.signal }),
        reread: rereadListed('bank account', 'BANK_ACCOUNT_NOT_FOUND', async (current) => {
          listed(await listBankAccounts(ctx));
          return accounts.find((a) => a.id === current.id);
        }),
      });
    }
  }
}
