import * as z from 'zod';
import { PARTNER_SCOPE } from '../config/partner-scope.js';
import { ACCOUNT_FIELD } from '../sources/field-spec.js';
import type { MappedRecord } from '../sources/record.js';
import { failedAll, outcomeOf } from '../sync/build-outcome.js';
import type { HeldVerdict } from '../sync/held-verdict.js';
import type { RecordOutcome } from '../sync/outcome.js';
import type { AccountStop, ChunkContext } from '../sync/ports.js';
import { ChunkStopError, stoppedOutcome } from '../sync/stop.js';
import type { KindFeedOptions, RouteVerdict } from './definition.js';

/**
 * The field in a kind's payload schema by which a record names its account (ACCOUNT_FIELD): the
 * account's externalId, as an accounts feed provisions it, instead of (or, for the records that
 * leave it empty, beside) the feed's fixed `accountId`.
 */
export const accountRef = z.string().min(1).optional();

export interface AccountRouted {
  accountExternalId?: string | undefined;
}

/**
 * Stops that concern one named account only, and what its records not sent yet fail with: with
 * records of several accounts in one feed, the other accounts go on.
 */
const ACCOUNT_STOPS: Readonly<Record<string, (named: string, stop: AccountStop) => string>> = {
  MAX_USERS_REACHED: (named, stop) => `not sent, account "${named}" has no user slot left: ${stop.message}`,
  ACCOUNT_NOT_FOUND: (named) =>
    `not sent: account "${named}" was deleted in the service while this chunk ran; the next run looks for it again`,
};

/**
 * The kinds' `route`: a record naming an account goes there (its route carries the account's
 * externalId, so the run's duplicate check is per account too); one naming none goes to the
 * feed's account, and is rejected when the feed has none.
 */
export function routeToAccount(
  feed: KindFeedOptions,
  _statement: unknown,
  payload: AccountRouted,
): RouteVerdict {
  if (payload.accountExternalId !== undefined) return { route: { account: payload.accountExternalId } };
  if (feed.accountId !== PARTNER_SCOPE) return {};
  return {
    rejected: `the record names no customer account (${ACCOUNT_FIELD} is empty) and the feed has no accountId: fill in the account's externalId, or give the feed an accountId for such records`,
  };
}

interface Group<R> {
  records: R[];
  /** The account's externalId when the records name one; undefined: the feed's account. */
  named?: string;
  /** The account's id; undefined: no account of the partner has that externalId. */
  accountId?: number;
}

/** The chunk's records per target account; the partner's accounts are listed only when a record names one. */
async function groupsOf<R extends MappedRecord>(
  records: readonly R[],
  ctx: ChunkContext,
): Promise<Group<R>[]> {
  const byName = new Map<string | undefined, R[]>();
  for (const record of records) {
    const name = record.route?.account;
    const group = byName.get(name);
    if (group) group.push(record);
    else byName.set(name, [record]);
  }
  if (byName.size === 1 && byName.has(undefined))
    return [{ records: [...records], accountId: ctx.accountId }];
  const accounts = await ctx.client.listAccounts({ signal: ctx.signal });
  const ids = new Map(accounts.map((account) => [account.externalId, account.id]));
  return [...byName].map(([named, group]) =>
    named === undefined
      ? { records: group, accountId: ctx.accountId }
      : { records: group, named, accountId: ids.get(named) },
  );
}

/** The record as its kind's strategy sees it: the account is the chunk context's, not a field to send. */
function withoutAccount<P extends AccountRouted, R extends MappedRecord<P>>(record: R): R {
  const { accountExternalId: _named, ...payload } = record.payload;
  return { ...record, payload };
}

const unknownAccount = (named: string) => ({
  code: 'ACCOUNT_NOT_FOUND',
  message: `no customer account of the partner has externalId "${named}" (yet): provision it with an accounts feed (erp-bridge sync runs accounts feeds first); the next run looks again`,
});

/**
 * Syncs a chunk of a customer account's kind a group per target account (`accountExternalId`,
 * resolved to the account's id through the partner's account list, else the feed's account), each
 * with its account in the chunk context (X-Account-Id per request). Records of an account the
 * partner does not have (yet) fail, so the next run retries them. A stop of one named account
 * (ACCOUNT_STOPS) fails that account's remaining records with one alert and lets the others go on;
 * any other stop stops the run with every outcome kept. Outcomes come back in the chunk's order.
 */
export async function syncPerAccount<P extends AccountRouted, R extends MappedRecord<P>>(
  records: readonly R[],
  ctx: ChunkContext,
  sync: (records: R[], ctx: ChunkContext) => Promise<RecordOutcome[]>,
): Promise<RecordOutcome[]> {
  const outcomes = new Map<R, RecordOutcome>();
  const inOrder = () => records.flatMap((record) => outcomes.get(record) ?? []);
  for (const group of await groupsOf(records, ctx)) {
    let settled: RecordOutcome[];
    const named = group.named;
    // An account a chunk of this run already stopped gets nothing more sent.
    const before = named === undefined ? undefined : await ctx.accountStops?.stopped(named);
    const stoppedBefore =
      before && named !== undefined ? ACCOUNT_STOPS[before.code]?.(named, before) : undefined;
    if (group.accountId === undefined) settled = failedAll(group.records, unknownAccount(named ?? ''));
    else if (before && stoppedBefore)
      settled = failedAll(group.records, { code: before.code, message: stoppedBefore });
    else {
      try {
        settled = await sync(group.records.map(withoutAccount), { ...ctx, accountId: group.accountId });
      } catch (error) {
        if (!(error instanceof ChunkStopError)) throw error;
        const accountStop = named === undefined ? undefined : ACCOUNT_STOPS[error.code];
        if (accountStop === undefined || named === undefined) {
          group.records.forEach((record, i) => {
            const outcome = error.outcomes[i];
            if (outcome) outcomes.set(record, outcome);
          });
          for (const record of records)
            if (!outcomes.has(record)) outcomes.set(record, outcomeOf(record, stoppedOutcome(error)));
          throw new ChunkStopError(error, inOrder());
        }
        // One alert per run and account, whichever chunk (or worker) meets the stop first.
        const first =
          (await ctx.accountStops?.stop(named, { code: error.code, message: error.message })) ?? true;
        if (first)
          ctx.logger.error(
            { alert: true, code: error.code, account: named, accountId: group.accountId },
            `account "${named}": ${error.message}`,
          );
        // What the group settled before the stop keeps its outcome; the rest did not stop the run.
        const unsent = stoppedOutcome(error).message;
        const message = accountStop(named, error);
        settled = error.outcomes.map((o) =>
          o.code === error.code && o.message === unsent ? { ...o, message } : o,
        );
      }
    }
    group.records.forEach((record, i) => {
      const outcome = settled[i];
      if (outcome) outcomes.set(record, outcome);
    });
  }
  return inOrder();
}

/** The dry run of syncPerAccount: each group read in its own account; records of an unknown account would be sent. */
export async function predictPerAccount<P extends AccountRouted, R extends MappedRecord<P>>(
  records: readonly R[],
  ctx: ChunkContext,
  predict: (records: R[], ctx: ChunkContext) => Promise<(record: R) => HeldVerdict>,
): Promise<(record: R) => HeldVerdict> {
  const verdicts = new Map<R, HeldVerdict>();
  for (const group of await groupsOf(records, ctx)) {
    if (group.accountId === undefined) continue;
    const seen = group.records.map(withoutAccount);
    const verdict = await predict(seen, { ...ctx, accountId: group.accountId });
    group.records.forEach((record, i) => {
      const as = seen[i];
      if (as) verdicts.set(record, verdict(as));
    });
  }
  return (record) => verdicts.get(record);
}
