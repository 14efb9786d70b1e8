/**
 * Every enumeration of the spec, as plain tuples. Requests validate against these strictly;
 * responses treat them as open-ended (spec, Versioning 3: new enum values are non-breaking).
 */
export const USER_ROLES = ['ADMIN', 'USER', 'CONTRIBUTOR', 'INVESTOR'] as const;
export const LANGUAGES = ['en-US', 'de-DE'] as const;
export const ACCOUNT_STATUSES = ['ACTIVE', 'IN_TRIAL', 'CANCELLED', 'NON_RENEWING'] as const;
export const SUBSCRIPTION_PERIODS = ['MONTHLY', 'YEARLY', 'TWO_YEARS'] as const;

export const CATEGORY_TYPES = [
  'INCOME_OPERATIONAL',
  'INCOME_INVESTMENT',
  'INCOME_FINANCING',
  'EXPENSE_OPERATIONAL',
  'EXPENSE_INVESTMENT',
  'EXPENSE_FINANCING',
] as const;

export const PLAN_PERIODS = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export const PLAN_TYPES = ['ONE_TIME'] as const;

export const INVOICE_STATUSES = [
  'DRAFT',
  'OPEN',
  'PAID',
  'PARTIALLY_PAID',
  'CANCELED',
  'WITHHELD',
  'OFFER',
  'ORDER',
  'PLANNED',
  'RELEASED',
] as const;
/** Statuses without cash-flow impact by default (spec 2.7.0). */
export const NON_CASH_INVOICE_STATUSES = ['OFFER', 'ORDER', 'PLANNED', 'RELEASED'] as const;
export const INVOICE_TYPES = [
  'SALES_INVOICE',
  'SALES_CREDIT_NOTE',
  'PURCHASE_INVOICE',
  'PURCHASE_CREDIT_NOTE',
] as const;
export const INVOICE_TYPE_FILTERS = ['SALE', 'PURCHASE'] as const;

export const BANK_ACCOUNT_TYPES = [
  'CHECKING',
  'SAVINGS',
  'CREDITCARD',
  'SECURITY',
  'LOAN',
  'POCKET',
  'MEMBERSHIP',
  'BAUSPAREN',
] as const;
export const BANK_ACCOUNT_PROVIDERS = ['API', 'PARTNER', 'OFFLINE', 'ONLINE'] as const;
export const CONVERT_TARGET_PROVIDERS = ['API', 'OFFLINE'] as const;

export const SCOPES = ['api:read', 'api:write'] as const;

/** `service:auth-error` codes of the embedded messaging protocol. */
export const EMBEDDED_AUTH_ERROR_CODES = [
  'MISSING_TOKEN',
  'INVALID_TOKEN',
  'EXPIRED_TOKEN',
  'TOKEN_ALREADY_USED',
  'USER_INACTIVE',
  'INTERNAL_ERROR',
] as const;

export type UserRole = (typeof USER_ROLES)[number];
export type Language = (typeof LANGUAGES)[number];
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export type CategoryType = (typeof CATEGORY_TYPES)[number];
export type PlanPeriod = (typeof PLAN_PERIODS)[number];
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export type InvoiceTypeFilter = (typeof INVOICE_TYPE_FILTERS)[number];
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
export type BankAccountProvider = (typeof BANK_ACCOUNT_PROVIDERS)[number];
export type Scope = (typeof SCOPES)[number];

/** The invoiceTypeFilter that finds an invoice of the given type (SALES_* -> SALE, PURCHASE_* -> PURCHASE). */
export function invoiceTypeFilterOf(type: InvoiceType): InvoiceTypeFilter {
  return type.startsWith('SALES_') ? 'SALE' : 'PURCHASE';
}
