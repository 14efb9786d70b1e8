import { ApiError } from '../../client/index.js';
import type { BankAccount } from '../../contract/index.js';
import type { BalanceCandidate, BalanceUpdate } from '../../sources/formats/statement-report.js';
import type { BookedBalance } from '../../sources/formats/statement-totals.js';
import { parseAmount } from '../../sources/values/amount.js';
import type { ChunkContext } from '../../sync/ports.js';
import { RunStopError } from '../../sync/stop.js';
import type { BankAccountTarget } from '../bank-accounts/bank-account-target.js';
import { listBankAccounts, resolveBankAccount, withExternalId } from '../bank-accounts/lookup.js';
import { routeTransaction, targetOfRoute } from './routing.js';
import type { TransactionFeedSettings } from './settings.js';

interface Candidate {
  target: BankAccountTarget;
  balance: BookedBalance;
  statementLine: number;
}

/** The target a statement account's records go to, or undefined when they go nowhere (reported per record). */
function targetOf(feed: TransactionFeedSettings, candidate: BalanceCandidate): BankAccountTarget | undefined {
  const account =
    candidate.account === ''
      ? null
      : {
          account: candidate.account,
          ...(candidate.currency ? { currency: candidate.currency } : {}),
          ...(candidate.otherId ? { otherId: candidate.otherId } : {}),
        };
  const verdict = routeTransaction(feed, account);
  if ('rejected' in verdict) return undefined;
  if (verdict.route && feed.bankAccounts) return targetOfRoute(feed.bankAccounts, verdict.route);
  return feed.bankAccount;
}

/** Per target, the newest start-of-day balance (several statement accounts may share the feed's one target). */
function newestPerTarget(
  feed: TransactionFeedSettings,
  candidates: readonly BalanceCandidate[],
): Candidate[] {
  const newest = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const target = targetOf(feed, candidate);
    if (!target) continue;
    const held = newest.get(target.externalId);
    if (!held || held.balance.date <= candidate.balance.date)
      newest.set(target.externalId, {
        target,
        balance: candidate.balance,
        statementLine: candidate.statementLine,
      });
  }
  return [...newest.values()];
}

/**
 * Keeps each target bank account's `balanceReference` / `balanceDate` at the newest booked balance
 * the file's statements prove, only when it is newer than what the account holds: an older file
 * imported again never moves the balance back. A balance the account already holds for the same
 * day is left as it is (the service, or a later statement, may know better); a different one is
 * reported. A failure is reported per account and never stops the run: the records are what the
 * run is for. A dry run reads and reports what it would update.
 */
export async function updateStatementBalances(
  feed: TransactionFeedSettings,
  found: readonly BalanceCandidate[],
  dryRun: boolean,
  ctx: ChunkContext,
): Promise<BalanceUpdate[]> {
  const candidates = newestPerTarget(feed, found);
  if (candidates.length === 0) return [];
  let accounts: BankAccount[] | undefined;
  const updates: BalanceUpdate[] = [];
  for (const { target, balance, statementLine } of candidates) {
    const base = {
      bankAccount: target.externalId,
      balanceDate: balance.date,
      balanceReference: balance.amount,
      statementLine,
    };
    try {
      accounts ??= await listBankAccounts(ctx);
      const held = withExternalId(accounts, target.externalId)[0];
      const verdict = compare(held, balance);
      if (verdict) {
        updates.push({ ...base, ...(held ? { bankAccountId: held.id } : {}), ...verdict });
        continue;
      }
      if (dryRun) {
        updates.push({
          ...base,
          ...(held ? { bankAccountId: held.id } : {}),
          outcome: 'would-update',
          message: `would set the balance to ${balance.amount} at the start of ${balance.date} (dry run)`,
        });
        continue;
      }
      const reference = parseAmount(balance.amount, '.');
      if (!reference.ok) {
        updates.push({
          ...base,
          outcome: 'failed',
          message: `the balance ${balance.amount} cannot be sent exactly: ${reference.reason}`,
        });
        continue;
      }
      // The statement's account may not exist yet when none of its entries was sent (all pending).
      const id = held?.id ?? (await resolveBankAccount(target, ctx));
      await ctx.client.updateBankAccount(
        ctx.accountId,
        id,
        { balanceReference: reference.value.value, balanceDate: balance.date },
        { signal: ctx.signal },
      );
      updates.push({
        ...base,
        bankAccountId: id,
        outcome: 'updated',
        message: `balance set to ${balance.amount} at the start of ${balance.date}${held?.balanceDate ? ` (was ${held.balanceReference} on ${held.balanceDate})` : ''}`,
      });
    } catch (error) {
      if (!(error instanceof ApiError) && !(error instanceof RunStopError)) throw error;
      updates.push({ ...base, outcome: 'failed', message: `the balance was not updated: ${error.message}` });
    }
  }
  return updates;
}

/** Why the account's balance stays as it is, or undefined when the statement's is newer. */
function compare(
  held: BankAccount | undefined,
  balance: BookedBalance,
): Pick<BalanceUpdate, 'outcome' | 'message'> | undefined {
  const date = held?.balanceDate ?? undefined;
  if (!held || !date || date < balance.date) return undefined;
  const reference = held.balanceReference ?? undefined;
  if (date > balance.date)
    return {
      outcome: 'not-newer',
      message: `the account holds a newer balance (${reference} at the start of ${date}); the statement's ${balance.amount} at the start of ${balance.date} is older and was not applied`,
    };
  if (reference !== undefined && reference === Number(balance.amount))
    return {
      outcome: 'unchanged',
      message: `the account already holds ${balance.amount} at the start of ${balance.date}`,
    };
  return {
    outcome: 'not-newer',
    message: `the account holds ${reference} at the start of ${balance.date}, the statement says ${balance.amount}: left as it is (the same day is not newer); check the statement and the account`,
  };
}
