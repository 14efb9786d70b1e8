import * as z from 'zod';
import { accountKey } from '../../sources/statement-account.js';
import { BankAccountRoutes, BankAccountTarget } from '../bank-accounts/bank-account-target.js';
import type { KindFeedKeys } from '../definition.js';

/** A transactions feed's own keys (docs/feeds.md's reference table). */
export interface TransactionFeedSettings {
  bankAccount?: BankAccountTarget | undefined;
  /** Bank formats: a target per statement account (IBAN, Othr/Id, :25:), or `auto` (one per IBAN). */
  bankAccounts?: BankAccountRoutes | undefined;
  /** Bank statement formats: false leaves the target accounts' balances alone (default: kept up to date). */
  updateBalances?: boolean | undefined;
}

export const TRANSACTION_FEED_KEYS: KindFeedKeys<TransactionFeedSettings> = {
  bankAccount: {
    schema: BankAccountTarget,
    docs: {
      type: 'object',
      default: '(transactions: required, unless `bankAccounts`)',
      text: 'the target bank account: `externalId`, `accountName`, `bankName` (required), `accountCurrency` (`EUR`), `accountType` (`CHECKING`), `iban`, `accountNumber`. For `mt940` and `camt`: with `iban` or `accountNumber` it takes only the statements of that account and rejects the others (`UNKNOWN_ACCOUNT`); with neither, every statement of the file goes to it ([Statements and accounts](#statements-and-accounts))',
    },
    required: 'the target bank account (externalId, accountName, bankName, ...)',
    what: 'a target bank account',
  },
  bankAccounts: {
    schema: BankAccountRoutes,
    docs: {
      formats: 'mt940, camt',
      type: 'map of statement account to target, or `auto`',
      default: '(none)',
      text: 'transactions, instead of `bankAccount`: each statement goes to the target of its own account ([Statements and accounts](#statements-and-accounts))',
    },
    what: 'target bank accounts per statement account',
    insteadOf: 'bankAccount',
    perStatement: true,
  },
  updateBalances: {
    schema: z.boolean(),
    docs: {
      formats: 'mt940, camt',
      type: 'boolean',
      default: '`true`',
      text: "transactions: keep each target bank account's `balanceReference`/`balanceDate` at the newest booked balance of its statements, only when newer than what the account holds; `false` leaves balances alone ([Balances and statements that do not add up](#balances-and-statements-that-do-not-add-up)). On other formats or kinds it is an error",
    },
    what: 'balances to update',
    perStatement: true,
    misplaced: (kind, format) =>
      `only transactions feeds of bank statement formats (camt, mt940) update balances; a ${kind} feed of ${format} files has none to update: remove the key`,
  },
};

/**
 * What a transactions chunk carries: the feed's one target (`bankAccount`, resolved once per file)
 * and the targets per statement account, found or created by the chunk that needs one.
 */
export const TransactionChunkSettings = z.strictObject({
  bankAccountId: z.int().positive().optional(),
  bankAccounts: BankAccountRoutes.optional(),
});
export type TransactionChunkSettings = z.output<typeof TransactionChunkSettings>;

/** Two `bankAccounts` keys that name one account (`DE89 3704…` and `DE893704…`) would make the choice arbitrary. */
export function checkRoutes(
  feed: TransactionFeedSettings,
  report: (path: readonly (string | number)[], message: string) => void,
): void {
  if (feed.bankAccounts === undefined || feed.bankAccounts === 'auto') return;
  const seen = new Map<string, string>();
  for (const id of Object.keys(feed.bankAccounts)) {
    const first = seen.get(accountKey(id));
    if (first !== undefined)
      report(
        ['bankAccounts', id],
        `names the same account as "${first}" (accounts are compared without spaces, in upper case): keep one`,
      );
    else seen.set(accountKey(id), id);
  }
}
