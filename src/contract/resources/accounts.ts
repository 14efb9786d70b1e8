import * as z from 'zod';
import { ACCOUNT_STATUSES, LANGUAGES, SUBSCRIPTION_PERIODS, USER_ROLES } from '../enums.js';
import { PageQuery } from '../envelopes.js';
import { int64, openEnum } from '../primitives.js';

// Accounts ---------------------------------------------------------------------------------------

export const SubscriptionInformation = z.looseObject({
  maxAllowedUsers: z.int().optional(),
  maxAllowedBankAccounts: z.int().optional(),
  maxAllowedCompanies: z.int().optional(),
  bankAccountAddons: z.int().optional(),
  companyAddons: z.int().optional(),
  userAddons: z.int().optional(),
  subscriptionPeriod: openEnum(SUBSCRIPTION_PERIODS).optional(),
  consolidationAllowed: z.boolean().optional(),
  aiAnalyticsAllowed: z.boolean().optional(),
  ebicsAllowed: z.boolean().optional(),
});
export type SubscriptionInformation = z.output<typeof SubscriptionInformation>;

/** Assumption: the account's identifier is `id` and its status field is `status`. */
export const Account = z.looseObject({
  id: int64,
  externalId: z.string(),
  companyName: z.string(),
  status: openEnum(ACCOUNT_STATUSES).optional(),
  subscriptionInformation: SubscriptionInformation.optional(),
});
export type Account = z.output<typeof Account>;

/** Assumption (fields not shown): the initial admin user is a create-user body without companyId and role. */
export const InitialUser = z.strictObject({
  externalId: z.string().min(1),
  email: z.email(),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  language: z.enum(LANGUAGES).optional(),
});
export type InitialUser = z.output<typeof InitialUser>;

export const CreateAccountRequest = z.strictObject({
  externalId: z.string().min(1),
  companyName: z.string().min(1),
  user: InitialUser,
});
export type CreateAccountRequest = z.output<typeof CreateAccountRequest>;

export const UpdateAccountRequest = z.strictObject({ companyName: z.string().min(1).optional() });
export type UpdateAccountRequest = z.output<typeof UpdateAccountRequest>;

export const ListAccountsQuery = PageQuery.extend({ status: z.enum(ACCOUNT_STATUSES).optional() });
export type ListAccountsQuery = z.output<typeof ListAccountsQuery>;

// Companies --------------------------------------------------------------------------------------

/** Assumption (fields not shown): id and name. */
export const Company = z.looseObject({ id: int64, name: z.string() });
export type Company = z.output<typeof Company>;

// Users ------------------------------------------------------------------------------------------

/** Assumption (fields not shown): the create fields plus id and an `active` flag. */
export const User = z.looseObject({
  id: int64,
  externalId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: openEnum(USER_ROLES),
  companyId: int64.optional(),
  language: z.string().optional(),
  active: z.boolean().optional(),
});
export type User = z.output<typeof User>;

export const CreateAccountResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  account: Account,
  user: User,
  company: Company,
});
export type CreateAccountResponse = z.output<typeof CreateAccountResponse>;

export const CreateUserRequest = z.strictObject({
  companyId: int64,
  role: z.enum(USER_ROLES),
  externalId: z.string().min(1),
  email: z.email(),
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  language: z.enum(LANGUAGES).optional(),
});
export type CreateUserRequest = z.output<typeof CreateUserRequest>;

export const UpdateUserRequest = z.strictObject({
  firstName: z.string().min(1).optional(),
  lastName: z.string().min(1).optional(),
});
export type UpdateUserRequest = z.output<typeof UpdateUserRequest>;
