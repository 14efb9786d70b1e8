import { z } from 'zod';
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
