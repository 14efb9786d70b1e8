import { CURRENCY_CODES, type CurrencyCode } from '../../contract/index.js';
import type { MappedRecord } from '../../sources/record.js';
import { accountKey, type StatementAccount } from '../../sources/statement-account.js';
import type { BankAccountRoutes, BankAccountTarget } from '../bank-accounts/bank-account-target.js';
import type { RouteVerdict } from '../definition.js';
import type { TransactionFeedSettings } from './settings.js';

const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
const isCurrency = (code: string): code is CurrencyCode =>
  (CURRENCY_CODES as readonly string[]).includes(code);

/** The externalId `bankAccounts: auto` looks for and creates: stable per IBAN, readable in the service. */
export const autoExternalId = (iban: string): string => `iban-${iban}`;

/**
 * The PARTNER bank account `bankAccounts: auto` ensures for a statement's IBAN: named by the IBAN
 * (the service lets a person rename it; it is found by its externalId), in the statement's currency.
 */
export function autoTarget(route: StatementAccount): BankAccountTarget | undefined {
  const currency = route.currency ?? 'EUR';
  if (!isCurrency(currency)) return undefined;
  return {
    externalId: autoExternalId(route.account),
    accountName: route.account,
    bankName: 'bank statement import',
    accountCurrency: currency,
    accountType: 'CHECKING',
    iban: route.account,
  };
}

/** The target a route names under the feed's `bankAccounts` (undefined: none, the record was not routed by it). */
export function targetOfRoute(
  routes: BankAccountRoutes,
  route: StatementAccount,
): BankAccountTarget | undefined {
  if (routes === 'auto') return autoTarget(route);
  for (const [id, target] of Object.entries(routes)) if (accountKey(id) === route.account) return target;
  return undefined;
}

/** Whether the feed's one target is the account a statement names (its iban, account number, or `BLZ/number`). */
function isTheTarget(target: BankAccountTarget, account: string): boolean {
  const number = target.accountNumber === undefined ? undefined : accountKey(target.accountNumber);
  return (
    (target.iban !== undefined && accountKey(target.iban) === account) ||
    (number !== undefined && (account === number || account.endsWith(`/${number}`)))
  );
}

function routedByMap(routes: BankAccountRoutes, route: StatementAccount): RouteVerdict {
  if (routes === 'auto') {
    // An Othr/Id is the bank's own identifier, whatever it looks like: an account created with it
    // as `iban` could hold an IBAN the bank never gave.
    if (route.otherId)
      return {
        rejected: `statement account "${route.account}" is given as Othr/Id, not as an IBAN, so bankAccounts: auto cannot create its bank account: list it in bankAccounts with its target instead`,
      };
    if (!IBAN.test(route.account))
      return {
        rejected: `statement account "${route.account}" is not an IBAN, so bankAccounts: auto cannot create its bank account: list it in bankAccounts with its target instead`,
      };
    if (route.currency !== undefined && !isCurrency(route.currency))
      return {
        rejected: `statement account "${route.account}" is kept in ${route.currency}, a currency the service does not know: list it in bankAccounts with its target`,
      };
    return { route };
  }
  if (targetOfRoute(routes, route)) return { route };
  return {
    rejected: `statement account "${route.account}" is not in the feed's bankAccounts: add "${route.account}": { externalId, accountName, bankName } to bankAccounts (or use bankAccounts: auto)`,
  };
}

/**
 * Where a transaction of the statement of `account` goes (KindDefinition.route; null: the
 * statement names no account, undefined: the record is no statement's, as in CSV). A feed with
 * one `bankAccount` that names its iban or accountNumber takes only that account's statements, so
 * a statement that names none is refused (it cannot be told to be that account's); one that names
 * neither takes every statement, as for CSV.
 */
export function routeTransaction(
  feed: TransactionFeedSettings,
  account: StatementAccount | null | undefined,
): RouteVerdict {
  if (feed.bankAccounts !== undefined) {
    if (!account)
      return { rejected: "the statement names no account, so none of the feed's bankAccounts can be chosen" };
    return routedByMap(feed.bankAccounts, account);
  }
  const target = feed.bankAccount;
  if (account === undefined || target === undefined) return {};
  if (target.iban === undefined && target.accountNumber === undefined) return {};
  if (account === null)
    return {
      rejected: `the statement names no account (camt Acct/Id empty or missing, MT940 without :25:), so it cannot be told to be the feed's bankAccount "${target.externalId}" (${target.iban ?? target.accountNumber}): nothing of it is synced; ask the bank for statements that name their account`,
    };
  if (isTheTarget(target, account.account)) return {};
  return {
    rejected: `statement account "${account.account}" is not the feed's bankAccount "${target.externalId}" (${target.iban ?? target.accountNumber}): sync it with a feed of its own, or list both accounts in bankAccounts`,
  };
}

/** A chunk's records by the target they go to: `undefined` for the feed's one, else the route's target. */
export interface TargetGroup<R> {
  target: BankAccountTarget | undefined;
  records: R[];
}

export function groupByTarget<R extends MappedRecord>(
  records: readonly R[],
  routes: BankAccountRoutes | undefined,
): TargetGroup<R>[] {
  const groups = new Map<string, TargetGroup<R>>();
  for (const record of records) {
    const target = record.route && routes ? targetOfRoute(routes, record.route) : undefined;
    const key = target?.externalId ?? '';
    const group = groups.get(key) ?? { target, records: [] };
    group.records.push(record);
    groups.set(key, group);
  }
  return [...groups.values()];
}
