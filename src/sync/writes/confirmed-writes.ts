import { ApiError } from '../../client/index.js';
import type { OutcomeFields } from '../build-outcome.js';
import type { ChunkContext } from '../ports.js';
import { type Refusal, refusalOf } from '../refusal.js';
import { RecheckSchedule } from './recheck.js';

/** What a re-read after an ambiguous answer found: the target as the service holds it now, or the record's outcome. */
export type Reread<S> = { state: S } | { outcome: OutcomeFields };

/**
 * The `reread` of an update whose target is found again by listing: the target as listed when it
 * still has the same id, else the record fails with `code` (it was deleted while the update was in
 * flight; the next run creates it again).
 */
export function rereadListed<S extends { id: number }>(
  what: string,
  code: string,
  refind: (current: S) => Promise<S | undefined>,
): (current: S) => Promise<Reread<S>> {
  return async (current) => {
    const again = await refind(current);
    if (again?.id === current.id) return { state: again };
    const message = `${what} ${current.id} disappeared from the service while it was being updated; the next run creates it again`;
    return { outcome: { outcome: 'failed', code, message } };
  };
}

interface WriteSteps<S> {
  /** Operation name, for the re-check alert. */
  operation: string;
  id(state: S): number;
  /** Codes treated other than the default (see refusalOf). */
  refusals?: Readonly<Record<string, Refusal>>;
}

export interface UpdateSteps<S, B> extends WriteSteps<S> {
  /** The body that brings `state` in line with the record; undefined when nothing differs. */
  patchOf(state: S): B | undefined;
  send(state: S, patch: B): Promise<S>;
  reread(state: S): Promise<Reread<S>>;
}

export interface CreateSteps<S> extends WriteSteps<S> {
  send(): Promise<S>;
  /** After an ambiguous answer: the target if it exists now (or the record's outcome); undefined when absent. */
  find(): Promise<Reread<S> | undefined>;
}

function ambiguity(error: unknown, ctx: ChunkContext, operation: string): ApiError {
  if (!(error instanceof ApiError) || !error.ambiguous) throw error;
  ctx.logger.warn({ err: error, operation }, 'write answer lost or 500: re-reading before resending');
  return error;
}

/**
 * PATCHes one record's target until the service holds the record's values. A PATCH sets fields, so
 * it is idempotent in effect; still, after an ambiguous answer the target is re-read and compared
 * again (on the 1/2/4 s schedule) rather than resent blindly, so only what still differs is sent
 * and a PATCH that did land counts as the update. Refusals settle the record (refusalOf); other
 * errors are thrown to the chunk.
 */
export async function updateConfirmed<S, B extends object>(
  ctx: ChunkContext,
  initial: S,
  steps: UpdateSteps<S, B>,
): Promise<OutcomeFields> {
  const rechecks = new RecheckSchedule(ctx, steps.operation);
  let state = initial;
  let sent = false;
  for (;;) {
    const serviceId = steps.id(state);
    const patch = steps.patchOf(state);
    if (patch === undefined) {
      return sent
        ? {
            outcome: 'updated',
            serviceId,
            message: 'updated (confirmed by a re-read after an ambiguous answer)',
          }
        : { outcome: 'skipped', serviceId, message: 'unchanged' };
    }
    try {
      const updated = await steps.send(state, patch);
      return {
        outcome: 'updated',
        serviceId: steps.id(updated),
        message: `changed: ${Object.keys(patch).join(', ')}`,
      };
    } catch (error) {
      const refused = refusalOf(error, steps.refusals);
      if (refused) return { ...refused, serviceId };
      const cause = ambiguity(error, ctx, steps.operation);
      sent = true;
      await rechecks.wait(cause.code);
      const now = await steps.reread(state);
      if ('outcome' in now) return now.outcome;
      state = now.state;
    }
  }
}

/**
 * Creates one record's target. The create has no server-side de-duplication, so after an ambiguous
 * answer the target is looked for first (on the 1/2/4 s schedule) and only resent when absent; found
 * after our own ambiguous attempt, it counts as created.
 */
export async function createConfirmed<S>(ctx: ChunkContext, steps: CreateSteps<S>): Promise<OutcomeFields> {
  // Not de-duplicated by the service: a lost answer is waited out before the re-check (recheck.ts).
  const rechecks = new RecheckSchedule(ctx, steps.operation, true);
  for (;;) {
    try {
      return { outcome: 'created', serviceId: steps.id(await steps.send()) };
    } catch (error) {
      const refused = refusalOf(error, steps.refusals);
      if (refused) return refused;
      const cause = ambiguity(error, ctx, steps.operation);
      await rechecks.wait(cause.code, cause);
      const found = await steps.find();
      if (found === undefined) continue;
      if ('outcome' in found) return found.outcome;
      return {
        outcome: 'created',
        serviceId: steps.id(found.state),
        message: 'created (confirmed by a re-check after an ambiguous answer)',
      };
    }
  }
}
