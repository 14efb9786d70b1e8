import * as z from 'zod';
import { BANK_ACCOUNT_TYPES, CURRENCY_CODES } from '../../contract/index.js';

/**
 * The bank account a transactions feed writes to (the feed's `bankAccount`): found by externalId,
 * created (PARTNER) when absent. A file of its own so that the feed schema and the strategy that
 * resolves the target can both import it without importing the kind definition.
 */
export const BankAccountTarget = z.strictObject({
  externalId: z.string().min(1),
  accountName: z.string().min(1),
  bankName: z.string().min(1).max(255),
  accountCurrency: z.enum(CURRENCY_CODES).default('EUR'),
  accountType: z.enum(BANK_ACCOUNT_TYPES).default('CHECKING'),
  iban: z.string().optional(),
  accountNumber: z.string().optional(),
});
export type BankAccountTarget = z.output<typeof BankAccountTarget>;

/**
 * A bank-statement feed's targets per statement account (`bankAccounts`): a map from the account
 * a statement names (IBAN, camt `Othr/Id` or MT940 `:25:`, compared without spaces and in upper
 * case) to its target, or `auto`: one PARTNER bank account per IBAN (routing.ts).
 */
export const BankAccountRoutes = z.union([z.literal('auto'), z.record(z.string().min(1), BankAccountTarget)]);
export type BankAccountRoutes = z.output<typeof BankAccountRoutes>;
