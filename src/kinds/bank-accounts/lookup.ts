import { ApiError, type BankAccountCreateBody } from '../../client/index.js';
import type { BankAccount } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import { withCreateClaim } from '../../sync/create-claims.js';
import type { ChunkContext } from '../../sync/ports.js';
import { RunStopError, stopFor } from '../../sync/stop.js';
import { createConfirmed } from '../../sync/writes/confirmed-writes.js';
import type { BankAccountTarget } from './bank-account-target.js';

export const withExternalId = (accounts: readonly BankAccount[], externalId: string): BankAccount[] =>
  accounts.filter((account) => account.externalId === externalId);

export const listBankAccounts = (ctx: ChunkContext): Promise<BankAccount[]> =>
  ctx.client.listBankAccounts(ctx.accountId, { signal: ctx.signal });

export function ambiguousTarget(externalId: string, matches: readonly BankAccount[]): OutcomeFields {
  return {
    outcome: 'rejected',
    code: 'AMBIGUOUS_TARGET',
    message: `${matches.length} bank accounts in the service carry externalId "${externalId}" (ids ${matches.map((m) => m.id).join(', ')}); erp-bridge cannot tell which one is meant: give the others another externalId, or delete them, in the service`,
  };
}

/**
 * Creates one bank account (the API has no bulk). The create is not de-duplicated by the service,
 * so after an ambiguous answer the accounts are listed again and the externalId looked for before
 * anything is resent (1/2/4 s); `onListed` receives each fresh listing.
 */
export function createBankAccountConfirmed(
  ctx: ChunkContext,
  body: BankAccountCreateBody,
  externalId: string,
  onListed: (accounts: BankAccount[]) => void = () => {},
): Promise<OutcomeFields> {
  return createConfirmed<BankAccount>(ctx, {
    operation: 'createBankAccount',
    id: (account) => account.id,
    send: () => ctx.client.createBankAccount(ctx.accountId, body, { signal: ctx.signal }),
    find: async () => {
      const accounts = await listBankAccounts(ctx);
      onListed(accounts);
      const matches = withExternalId(accounts, externalId);
      const [found] = matches;
      if (!found) return undefined;
      return matches.length > 1 ? { outcome: ambiguousTarget(externalId, matches) } : { state: found };
    },
  });
}

function notPartner(account: BankAccount, ctx: ChunkContext): RunStopError {
  // The same condition as the service's 409 for a write to this account: one advice text (stop.ts).
  const error = new ApiError({
    kind: 'service',
    code: 'BANK_ACCOUNT_NOT_MODIFIABLE',
    status: 409,
    operation: 'resolveBankAccount',
    accountId: ctx.accountId,
    message: `bank account ${account.id} with externalId "${account.externalId}" has provider ${account.provider}`,
  });
  return stopFor(error) ?? new RunStopError(error.code, error.message, 1);
}

/**
 * The id of the existing bank account a transactions feed writes to, undefined when there is none
 * yet; a RunStopError when several carry the externalId (AMBIGUOUS_TARGET) or it is not managed by
 * the partner API (BANK_ACCOUNT_NOT_MODIFIABLE). A dry run stops here; a real run then creates it.
 */
export async function findBankAccount(
  target: BankAccountTarget,
  ctx: ChunkContext,
): Promise<number | undefined> {
  const matches = withExternalId(await listBankAccounts(ctx), target.externalId);
  const [found] = matches;
  if (matches.length > 1)
    throw new RunStopError('AMBIGUOUS_TARGET', ambiguousTarget(target.externalId, matches).message ?? '', 1);
  if (found && found.provider !== 'PARTNER') throw notPartner(found, ctx);
  return found?.id;
}

/**
 * The bank account a transactions feed writes to: the account with the target's externalId, or a
 * new PARTNER account with the target's fields when there is none (an ambiguous create is re-listed
 * before it is resent). The run cannot go on without it, so every problem is a RunStopError: several
 * accounts with the externalId (AMBIGUOUS_TARGET), one not managed by the partner API
 * (BANK_ACCOUNT_NOT_MODIFIABLE), no slot left (MAX_BANK_ACCOUNTS_REACHED), the target refused as
 * invalid (exit 2: fix the feed). A create whose outcome stays unknown throws its ApiError.
 */
export async function resolveBankAccount(target: BankAccountTarget, ctx: ChunkContext): Promise<number> {
  try {
    const found = await findBankAccount(target, ctx);
    if (found !== undefined) return found;
    const body: BankAccountCreateBody = {
      externalId: target.externalId,
      accountName: target.accountName,
      bankName: target.bankName,
      accountCurrency: target.accountCurrency,
      accountType: target.accountType,
      ...(target.iban ? { iban: target.iban } : {}),
      ...(target.accountNumber ? { accountNumber: target.accountNumber } : {}),
    };
    // Two runs of one account (two feeds, or a file scheduled twice) may both find the target
    // missing; the service does not de-duplicate bank accounts, so only the claim holder creates it,
    // after looking once more (the other run may have created it meanwhile).
    const claimed = await withCreateClaim(
      ctx,
      'bank-accounts',
      target.externalId,
      async (): Promise<OutcomeFields> => {
        const meanwhile = await findBankAccount(target, ctx);
        return meanwhile !== undefined
          ? { outcome: 'skipped', serviceId: meanwhile }
          : createBankAccountConfirmed(ctx, body, target.externalId);
      },
    );
    if (claimed === undefined)
      throw new RunStopError(
        'CONCURRENT_CREATE',
        `another run is creating the feed's target bank account "${target.externalId}" in account ${ctx.accountId} right now; nothing was sent, so it cannot be created twice: run again`,
        1,
      );
    const outcome = claimed;
    if ((outcome.outcome === 'created' || outcome.outcome === 'skipped') && outcome.serviceId !== undefined)
      return outcome.serviceId;
    const code = outcome.code ?? 'BANK_ACCOUNT_NOT_CREATED';
    if (code === 'AMBIGUOUS_TARGET') throw new RunStopError(code, outcome.message ?? code, 1);
    throw new RunStopError(
      code,
      `the feed's target bank account "${target.externalId}" could not be created: ${outcome.message}; fix bankAccount in the feed file`,
      2,
    );
  } catch (error) {
    throw stopFor(error) ?? error;
  }
}
