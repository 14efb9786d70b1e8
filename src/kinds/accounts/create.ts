import type { Account } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { createListed } from '../../sync/writes/create-conflict.js';
import type { AccountDirectory } from './directory.js';
import { type AccountRecord, createBodyOf } from './payload.js';

const EXTERNAL_ID_TAKEN = 'ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS';
// No emailHolder step: the holder may be a user of any account, even another partner's, and the
// service does not say which.
const EMAIL_TAKEN = 'USER_EMAIL_ALREADY_EXISTS';

const REFUSALS: Record<string, Refusal> = {
  [EMAIL_TAKEN]: {
    outcome: 'rejected',
    advice:
      "the initial admin's email belongs to a user of the service already (an email names one user in the whole service): give the account's admin another email in the export",
  },
};

/**
 * Creates one customer account with its company and initial admin (no bulk create in the API),
 * re-listing the partner's accounts after an ambiguous answer (createListed);
 * ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS means "find it, then update" (settleCreateConflict).
 */
export async function createAccount(
  record: AccountRecord,
  ctx: ChunkContext,
  directory: AccountDirectory,
  existing: (account: Account) => Promise<OutcomeFields>,
): Promise<OutcomeFields> {
  const body = createBodyOf(record.payload);
  return createListed<Account>(ctx, {
    operation: 'createAccount',
    refusals: REFUSALS,
    send: async () => (await ctx.client.createAccount(body, { signal: ctx.signal })).account,
    what: 'account',
    listing: "the partner's account list",
    named: `externalId "${record.externalId}"`,
    idTaken: EXTERNAL_ID_TAKEN,
    emailTaken: EMAIL_TAKEN,
    refind: () => directory.refind(record.externalId),
    id: (account) => account.id,
    existing,
  });
}
