import * as z from 'zod';

/**
 * One entry of `causes`. Structure not shown by the spec; assumption: each names the field and,
 * for bulk requests, the item index. Parsed tolerantly so any shape the service sends survives.
 */
export const Cause = z.looseObject({
  index: z.int().optional(),
  field: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type Cause = z.output<typeof Cause>;

/** The error body of every non-2xx answer. The HTTP status is only on the status line. */
export const ExceptionDetails = z.looseObject({
  timestamp: z.number(),
  error: z.string(),
  message: z.string(),
  causes: z.array(Cause).optional(),
});
export type ExceptionDetails = z.output<typeof ExceptionDetails>;

/**
 * Error codes the spec names, plus our assumptions for cases it leaves "not shown" (marked).
 * Codes are open-ended: an unknown code is a generic failure, never a parse error.
 */
export const ERROR_CODES = {
  INVALID_REQUEST: 'INVALID_REQUEST',
  MISSING_ACCOUNT_HEADER: 'MISSING_ACCOUNT_HEADER',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  INSUFFICIENT_SCOPE: 'INSUFFICIENT_SCOPE',
  SSO_NOT_ENABLED: 'SSO_NOT_ENABLED',
  USER_NOT_FOUND: 'USER_NOT_FOUND',
  USER_INACTIVE: 'USER_INACTIVE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS: 'ACCOUNT_EXTERNAL_ID_ALREADY_EXISTS',
  USER_EMAIL_ALREADY_EXISTS: 'USER_EMAIL_ALREADY_EXISTS',
  ACCOUNT_NOT_FOUND: 'ACCOUNT_NOT_FOUND',
  MAX_USERS_REACHED: 'MAX_USERS_REACHED',
  COMPANY_NOT_FOUND: 'COMPANY_NOT_FOUND',
  USER_EXTERNAL_ID_ALREADY_EXISTS: 'USER_EXTERNAL_ID_ALREADY_EXISTS',
  USER_CANNOT_BE_DELETED: 'USER_CANNOT_BE_DELETED',
  LAST_ADMIN_CANNOT_BE_DELETED: 'LAST_ADMIN_CANNOT_BE_DELETED',
  MAX_BANK_ACCOUNTS_REACHED: 'MAX_BANK_ACCOUNTS_REACHED',
  BANK_ACCOUNT_NOT_FOUND: 'BANK_ACCOUNT_NOT_FOUND',
  BANK_ACCOUNT_NOT_MODIFIABLE: 'BANK_ACCOUNT_NOT_MODIFIABLE',
  PROVIDER_CONVERSION_TOO_SOON: 'PROVIDER_CONVERSION_TOO_SOON',
  PROVIDER_CONVERSION_NOT_ALLOWED: 'PROVIDER_CONVERSION_NOT_ALLOWED',
  /** Assumption: 403 when the partner may not access the account in X-Account-Id. */
  ACCOUNT_ACCESS_DENIED: 'ACCOUNT_ACCESS_DENIED',
  /** Assumption: 400 when a bulk request or existence check carries more than 1000 items. */
  BULK_LIMIT_EXCEEDED: 'BULK_LIMIT_EXCEEDED',
  /** Assumption: 409 on update/delete of an ERP-originated invoice. */
  INVOICE_NOT_MODIFIABLE: 'INVOICE_NOT_MODIFIABLE',
  /** Assumptions: 404 codes of resources whose error tables are not shown. */
  CATEGORY_NOT_FOUND: 'CATEGORY_NOT_FOUND',
  SCENARIO_NOT_FOUND: 'SCENARIO_NOT_FOUND',
  INVOICE_NOT_FOUND: 'INVOICE_NOT_FOUND',
  TRANSACTION_NOT_FOUND: 'TRANSACTION_NOT_FOUND',
  /** Assumptions: 409 conflicts of category writes. */
  CATEGORY_ALREADY_EXISTS: 'CATEGORY_ALREADY_EXISTS',
  CATEGORY_IN_USE: 'CATEGORY_IN_USE',
  CATEGORY_NOT_MODIFIABLE: 'CATEGORY_NOT_MODIFIABLE',
  /** Assumption: 409 when a single transaction create repeats an existing externalId. */
  TRANSACTION_ALREADY_EXISTS: 'TRANSACTION_ALREADY_EXISTS',
  /** Assumption: 404 for an unknown path or method. */
  NOT_FOUND: 'NOT_FOUND',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** OAuth 2.0 (RFC 6749 section 5.2) error body of the token endpoint. */
export const OAuthErrorBody = z.looseObject({
  error: z.string(),
  error_description: z.string().optional(),
});
export type OAuthErrorBody = z.output<typeof OAuthErrorBody>;
