import type { StatementTotals } from '../sources/formats/statement-totals.js';
import type { SourceRow } from '../sources/row.js';
import { accountKey } from '../sources/statement-account.js';

/**
 * What `bankAccounts: auto` creates an account for (kinds/transactions/routing.ts, docs/feeds.md
 * "Statements and accounts"): an account given as an IBAN, not as camt `Othr/Id` nor as MT940's
 * `BLZ/number`. init cannot import the sync's routing; this is its rule as the docs state it.
 */
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;

/** One account the sampled statements name, and what it means for the feed's target. */
export interface SeenAccount {
  /** As the file gives it (compared without spaces, in upper case). */
  account: string;
  /** `bankAccounts: auto` can create its bank account. */
  auto: boolean;
  statements: number;
  currency?: string;
}

/**
 * The accounts the sample's statements name, in file order; '' for a statement naming none. A
 * statement the reader keeps no totals of (MT942's interim reports, a statement the cap cut) is
 * known by its entries' `account` cells (`accountIban` empty: camt's Othr/Id).
 */
export function seenAccounts(
  statements: readonly StatementTotals[],
  rows: readonly SourceRow[] = [],
): SeenAccount[] {
  const seen = new Map<string, SeenAccount>();
  const fromRows = rows.flatMap((row) => {
    const account = row.cell('account') ?? '';
    const otherId = row.cell('accountIban') === '' && account !== '';
    return account === '' ? [] : [{ account, otherId, fromRow: true }];
  });
  for (const row of fromRows) {
    const account = accountKey(row.account);
    if (seen.has(account) || statements.some((s) => accountKey(s.account) === account)) continue;
    seen.set(account, { account, auto: !row.otherId && IBAN.test(account), statements: 0 });
  }
  for (const statement of statements) {
    const account = accountKey(statement.account);
    const known = seen.get(account);
    if (known) {
      known.statements++;
      continue;
    }
    seen.set(account, {
      account,
      auto: account !== '' && statement.otherId !== true && IBAN.test(account),
      statements: 1,
      ...(statement.currency ? { currency: statement.currency } : {}),
    });
  }
  return [...seen.values()];
}

/**
 * What the person fills in for the target bank account(s), as notes: one account, `bankAccount`
 * with its iban or accountNumber; several, `bankAccounts: auto` when every one is an IBAN, else a
 * map from account to target.
 */
export function accountNotes(accounts: readonly SeenAccount[], statements: number): string[] {
  const named = accounts.filter((a) => a.account !== '');
  const listed = named
    .map((a) => `${a.account}${a.currency ? ` (${a.currency})` : ''}${a.auto ? '' : ' (not an IBAN)'}`)
    .join(', ');
  const notes = [
    `${statements} statement(s) read whole from the sample; account(s) seen: ${listed || 'none'}`,
  ];
  if (accounts.some((a) => a.account === ''))
    notes.push(
      'a statement names no account: only a bankAccount without iban or accountNumber takes its entries (docs/feeds.md, "Statements and accounts")',
    );
  const only = named[0];
  if (named.length === 1 && only)
    notes.push(
      `fill in bankAccount (externalId, accountName, bankName) with ${only.auto ? `iban: ${only.account}` : `accountNumber: ${only.account}`}, so that statements of another account are rejected, not booked to it`,
    );
  else if (named.length > 1 && named.every((a) => a.auto))
    notes.push(
      'several accounts: `bankAccounts: auto` books each statement to a bank account of its IBAN (externalId iban-<IBAN>, created when missing), or list them in a bankAccounts map',
    );
  else if (named.length > 1)
    notes.push(
      `several accounts, ${named
        .filter((a) => !a.auto)
        .map((a) => a.account)
        .join(
          ', ',
        )} not an IBAN (bankAccounts: auto refuses it): list each account in a bankAccounts map with its target`,
    );
  else if (accounts.length === 0)
    notes.push('no statement was read from the sample: fill in bankAccount for the account of the export');
  return notes;
}
