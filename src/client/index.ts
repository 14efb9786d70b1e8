export type { CallArgs, CallOptions, CommonCallOptions, PageItem, PaginatedOperation } from './call-types.js';
export {
  CLIENT_DEFAULTS,
  PartnerClientCore,
  type PartnerClientDeps,
  type PartnerClientSettings,
} from './client-core.js';
export {
  ApiError,
  type ApiErrorInit,
  type ApiErrorKind,
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  isApiError,
} from './errors.js';
export {
  type Alert,
  type Attempt,
  type ClientHooks,
  combineHooks,
  type RateLimited,
  type RequestStart,
  type Retry,
} from './hooks.js';
export { iteratePages } from './pagination.js';
export {
  type BankAccountCreateBody,
  type BankAccountUpdateBody,
  type HelperOptions,
  type InvoiceCreateBody,
  type InvoiceTypeFilter,
  type InvoiceUpdateBody,
  PartnerClient,
  type PlanBody,
  type TransactionInputBody,
  type UserCreateBody,
  type UserUpdateBody,
} from './partner-client.js';
export {
  isIdempotent,
  isRetryableStatus,
  maxRetries,
  RATE_LIMIT_DEFAULTS,
  type RateLimitPolicy,
  RETRY_POLICY,
  type RetryPolicy,
  retryAfterMs,
  retryDelayMs,
} from './retry-policy.js';
