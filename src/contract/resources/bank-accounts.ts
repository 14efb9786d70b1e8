import * as z from 'zod';
import { CURRENCY_CODES } from '../currencies.js';
import { BANK_ACCOUNT_PROVIDERS, BANK_ACCOUNT_TYPES, CONVERT_TARGET_PROVIDERS } from '../enums.js';
import { LIMITS } from '../limits.js';
import { boundedNumber, int64, isoDate, openEnum } from '../primitives.js';

const bankAccountFields = {
  companyId: int64.optional(),
  iban: z.string().min(1).optional(),
  accountNumber: z.string().min(1).optional(),
  /** Required on create; the spec's "Default EUR" is what a client should send when it has none. */
  accountCurrency: z.enum(CURRENCY_CODES),
  accountName: z.string().min(1),
  bankName: z.string().min(1).max(LIMITS.bankNameMaxLength),
  balanceReference: boundedNumber(LIMITS.balanceReference.min, LIMITS.balanceReference.max).optional(),
  balanceDate: isoDate.optional(),
  accountType: z.enum(BANK_ACCOUNT_TYPES),
  externalId: z.string().min(1).max(LIMITS.externalIdMaxLength).optional(),
  visible: z.boolean().optional(),
};

export const BankAccountCreate = z.strictObject(bankAccountFields);
export type BankAccountCreate = z.output<typeof BankAccountCreate>;

export const BankAccountUpdate = z.strictObject(bankAccountFields).partial();
export type BankAccountUpdate = z.output<typeof BankAccountUpdate>;

/** Bank account as returned (fields not shown). Assumption: the create fields plus id and provider. */
export const BankAccount = z.looseObject({
  id: int64,
  companyId: int64.nullable().optional(),
  iban: z.string().nullable().optional(),
  accountNumber: z.string().nullable().optional(),
  accountCurrency: z.string(),
  accountName: z.string(),
  bankName: z.string(),
  balanceReference: z.number().nullable().optional(),
  balanceDate: z.string().nullable().optional(),
  accountType: openEnum(BANK_ACCOUNT_TYPES),
  externalId: z.string().nullable().optional(),
  visible: z.boolean(),
  provider: openEnum(BANK_ACCOUNT_PROVIDERS),
});
export type BankAccount = z.output<typeof BankAccount>;

/** One balance record (fields not shown). Assumption: a date and the start-of-day balance on it. */
export const Balance = z.looseObject({ date: z.string(), balance: z.number() });
export type Balance = z.output<typeof Balance>;

export const ConvertRequest = z.strictObject({ targetProvider: z.enum(CONVERT_TARGET_PROVIDERS) });
export type ConvertRequest = z.output<typeof ConvertRequest>;
