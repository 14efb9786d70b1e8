import type { OutcomeFields } from '../build-outcome.js';
import type { ChunkContext } from '../ports.js';
import type { Refusal } from '../refusal.js';
import { createConfirmed } from './confirmed-writes.js';

/** How a single create whose answer was a conflict is settled (users, accounts). */
export interface ConflictSteps<S> {
  /** What the record is, for messages: "user", "account". */
  what: string;
  /** Where the service's records of that kind are listed, for messages: "the account's user list". */
  listing: string;
  /** What names the record, as messages quote it: `externalId "erp-1"`, `path "Revenue/Consulting"`. */
  named: string;
  /** The code of "this externalId (or path) is taken". */
  idTaken: string;
  /** The code of "this email is taken" (one email per user in the whole service), for kinds with one. */
  emailTaken?: string;
  /** Whether we sent more than once: a conflict then is our own ambiguous attempt having landed. */
  resent: boolean;
  /** Lists again and finds the externalId. */
  refind(): Promise<S | undefined>;
  id(state: S): number;
  /** The outcome of the record against what the service holds (compare, update). */
  existing(state: S): Promise<OutcomeFields>;
  /** The refusal of a taken email, told more precisely when the holder can be named. */
  emailHolder?(outcome: OutcomeFields): OutcomeFields;
}

/**
 * The outcome of a create the service refused as a conflict. A taken externalId means the record
 * exists after all (another client, or an answer lost in an earlier run): it is looked up and
 * handed to `existing`. After our own ambiguous attempt a conflict on the externalId or the email
 * is that attempt having landed, and counts as the create. A taken email that is not ours rejects
 * the record with the reason. Other outcomes are returned as they are.
 */
export async function settleCreateConflict<S>(
  outcome: OutcomeFields,
  steps: ConflictSteps<S>,
): Promise<OutcomeFields> {
  const { code } = outcome;
  const emailTaken = code !== undefined && code === steps.emailTaken;
  const holder = (refused: OutcomeFields) => steps.emailHolder?.(refused) ?? refused;
  if (emailTaken && !steps.resent) return holder(outcome);
  if (code !== steps.idTaken && !emailTaken) return outcome;
  const found = await steps.refind();
  if (found === undefined) {
    if (emailTaken) return holder(outcome);
    return {
      outcome: 'failed',
      code: steps.idTaken,
      message: `the service refused the create (${steps.idTaken}), but ${steps.listing} does not show the ${steps.what} of ${steps.named}; the next run looks again`,
    };
  }
  if (steps.resent) {
    return {
      outcome: 'created',
      serviceId: steps.id(found),
      message: 'created (confirmed by a re-check after an ambiguous answer)',
    };
  }
  const settled = await steps.existing(found);
  const why = `the service already holds ${steps.named} (${steps.idTaken} on create)`;
  return { ...settled, message: [why, settled.message].filter(Boolean).join('; ') };
}

/** A single create of a kind the API finds only by listing (users, accounts). */
export interface ListedCreateSteps<S> extends Omit<ConflictSteps<S>, 'resent'> {
  operation: string;
  refusals: Readonly<Record<string, Refusal>>;
  send(): Promise<S>;
}

/**
 * Creates one record. An ambiguous answer (500, timeout, reset) is never resent blindly: the
 * service's records are listed again on the 1/2/4 s schedule and the create is resent only when
 * the externalId is still missing (createConfirmed); a conflict is settled by settleCreateConflict.
 */
export async function createListed<S>(
  ctx: ChunkContext,
  steps: ListedCreateSteps<S>,
): Promise<OutcomeFields> {
  let attempts = 0;
  const outcome = await createConfirmed<S>(ctx, {
    operation: steps.operation,
    id: steps.id,
    refusals: steps.refusals,
    send: () => {
      attempts += 1;
      return steps.send();
    },
    find: async () => {
      const found = await steps.refind();
      return found === undefined ? undefined : { state: found };
    },
  });
  return settleCreateConflict(outcome, { ...steps, resent: attempts > 1 });
}
