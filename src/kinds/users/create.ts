import { ApiError, type UserCreateBody } from '../../client/index.js';
import type { User } from '../../contract/index.js';
import type { OutcomeFields } from '../../sync/build-outcome.js';
import type { ChunkContext } from '../../sync/ports.js';
import type { Refusal } from '../../sync/refusal.js';
import { RunStopError } from '../../sync/stop.js';
import { createConfirmed } from '../../sync/writes/confirmed-writes.js';
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
    `${error.message} — the customer's subscription has no user slot left: delete a user or book a user add-on in the service, then run again (the users not sent yet are created then)`,
    1,
  );
}

/**
 * Creates one user (the API has no bulk create of users). An ambiguous answer (500, timeout,
 * reset) is never resent blindly: the users are listed again on the 1/2/4 s schedule and the
 * create is resent only when the externalId is still missing (createConfirmed). A conflict on the
 * externalId means the user exists after all (another client, or an answer lost in an earlier run):
 * it is looked up and handed to `existing`; after our own ambiguous attempt a conflict on the
 * externalId or the email is that attempt having landed, and counts as the create.
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
  let attempts = 0;
  const outcome = await createConfirmed<User>(ctx, {
    operation: 'createUser',
    id: (user) => user.id,
    refusals: REFUSALS,
    send: async () => {
      attempts += 1;
      try {
        return await ctx.client.createUser(ctx.accountId, body, { signal: ctx.signal });
      } catch (error) {
        throw noUserSlotLeft(error) ?? error;
      }
    },
    find: async () => {
      const user = await directory.refind(record.externalId);
      return user && { state: user };
    },
  });
  const ours = attempts > 1;
  if (outcome.code === EMAIL_TAKEN && !ours) return withEmailHolder(outcome, body.email, directory);
  if (outcome.code !== EXTERNAL_ID_TAKEN && outcome.code !== EMAIL_TAKEN) return outcome;
  const user = await directory.refind(record.externalId);
  if (!user) {
    if (outcome.code === EMAIL_TAKEN) return withEmailHolder(outcome, body.email, directory);
    return {
      outcome: 'failed',
      code: EXTERNAL_ID_TAKEN,
      message: `the service refused the create because a user with externalId "${record.externalId}" exists, but the account's user list does not show it; the next run looks again`,
    };
  }
  if (ours) {
    return {
      outcome: 'created',
      serviceId: user.id,
      message: 'created (confirmed by a re-check after an ambiguous answer)',
    };
  }
  const settled = await existing(user);
  const why = `the service already holds externalId "${record.externalId}" (${EXTERNAL_ID_TAKEN} on create)`;
  return { ...settled, message: [why, settled.message].filter(Boolean).join('; ') };
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
