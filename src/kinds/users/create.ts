import { ApiError, type UserCreateBody } from '../../client/index.js';
import type { User } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { RunStopError } from '../../sync/stop.js';
import { createListed } from '../../sync/writes/create-conflict.js';
import type { UserDirectory } from './directory.js';
import type { UserRecord } from './payload.js';

const EXTERNAL_ID_TAKEN = 'USER_EXTERNAL_ID_ALREADY_EXISTS';
const EMAIL_TAKEN = 'USER_EMAIL_ALREADY_EXISTS';

const REFUSALS: Record<string, Refusal> = {
  [EMAIL_TAKEN]: {
    outcome: 'rejected',
    advice:
      'an email belongs to one user in the whole service: correct the email in the export, or give the record the externalId of the user who has it',
  },
  COMPANY_NOT_FOUND: {
    outcome: 'rejected',
    advice: "the record's companyId is not a company of this account: correct companyId in the export",
  },
};

/**
 * Every further create of the account would be refused the same way: the run stops (one alert,
 * the feed's run-stopped notice) and its users not yet sent are reported failed with this reason.
 */
function noUserSlotLeft(error: unknown): RunStopError | undefined {
  if (!(error instanceof ApiError) || error.serviceCode !== 'MAX_USERS_REACHED') return undefined;
  return new RunStopError(
    'MAX_USERS_REACHED',
    `${error.message} — the user limit of the customer's plan is reached (no user slot left): delete a user or book a user add-on in the service, then run again (the users not sent yet are created then)`,
    1,
  );
}

/**
 * Creates one user (the API has no bulk create of users), re-listing the account's users after an
 * ambiguous answer and settling conflicts (createListed).
 */
export async function createUser(
  record: UserRecord,
  ctx: ChunkContext,
  directory: UserDirectory,
  existing: (user: User) => Promise<OutcomeFields>,
): Promise<OutcomeFields> {
  const companyId = record.payload.companyId ?? (await directory.company());
  if (typeof companyId !== 'number') return companyId;
  const body: UserCreateBody = { ...record.payload, companyId };
  return createListed<User>(ctx, {
    operation: 'createUser',
    refusals: REFUSALS,
    send: async () => {
      try {
        return await ctx.client.createUser(ctx.accountId, body, { signal: ctx.signal });
      } catch (error) {
        throw noUserSlotLeft(error) ?? error;
      }
    },
    what: 'user',
    listing: "the account's user list",
    named: `externalId "${record.externalId}"`,
    idTaken: EXTERNAL_ID_TAKEN,
    emailTaken: EMAIL_TAKEN,
    refind: () => directory.refind(record.externalId),
    id: (user) => user.id,
    existing,
    emailHolder: (refused) => withEmailHolder(refused, body.email, directory),
  });
}

/** Names the user of this account who has the email, when it is one (the service may not say). */
function withEmailHolder(outcome: OutcomeFields, email: string, directory: UserDirectory): OutcomeFields {
  const holder = directory.withEmail(email);
  if (!holder) return outcome;
  return {
    ...outcome,
    message: `${outcome.message} — in this account it is user ${holder.id} (externalId "${holder.externalId}")`,
  };
}
