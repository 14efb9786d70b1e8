import type { Cause } from '../contract/index.js';
import { secrets } from '../logging/secret-scrubber.js';

/**
 * Every failure of the client is an ApiError, so callers handle one type and never undici's or
 * Node's own errors. `code` is stable per meaning: the service's own `error` code when it sent
 * one (INVALID_REQUEST, ACCOUNT_NOT_FOUND, ...), an unknown service code passed through as a
 * generic failure, `HTTP_<status>` when the error body carried none, or one of CLIENT_ERROR_CODES
 * for what the client itself detected. `kind` groups codes by what the caller should do next.
 */
export type ApiErrorKind =
  /** The service answered with an error status; `code` is its `error` code. */
  | 'service'
  /** 429 for longer than one call may wait; pause the account's work for `retryAfterMs`. */
  | 'rate_limited'
  /** A write may or may not have been applied: re-check (existence check/lookup) before resending. */
  | 'ambiguous_write'
  /** No usable answer (connection refused, reset, timeout), after the retries reads get. */
  | 'network'
  /** A 2xx answer that is not JSON or does not match the contract. */
  | 'malformed_response'
  /** The token endpoint refused the credentials, was unreachable or failed. */
  | 'auth'
  /** Refused by the client before sending (a limit of the spec would be broken). */
  | 'refused';

export const CLIENT_ERROR_CODES = {
  AMBIGUOUS_WRITE: 'AMBIGUOUS_WRITE',
  SERVICE_UNREACHABLE: 'SERVICE_UNREACHABLE',
  TIMEOUT: 'TIMEOUT',
  NETWORK_ERROR: 'NETWORK_ERROR',
  MALFORMED_RESPONSE: 'MALFORMED_RESPONSE',
  /** CLI: "the service refused the credentials". */
  AUTH_REJECTED: 'AUTH_REJECTED',
  /** CLI: "the service is unreachable". */
  AUTH_UNREACHABLE: 'AUTH_UNREACHABLE',
  AUTH_FAILED: 'AUTH_FAILED',
  RATE_LIMITED: 'RATE_LIMITED',
  /** Same meaning as the service's code for more than 1000 items, detected before sending. */
  BULK_LIMIT_EXCEEDED: 'BULK_LIMIT_EXCEEDED',
  EMPTY_BULK: 'EMPTY_BULK',
  TOO_MANY_EXTERNAL_IDS: 'TOO_MANY_EXTERNAL_IDS',
  INVALID_EXTERNAL_ID: 'INVALID_EXTERNAL_ID',
} as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

export interface ApiErrorInit {
  kind: ApiErrorKind;
  code: string;
  message: string;
  /** Operation name from OPERATIONS, or 'token' for the token endpoint. */
  operation: string;
  accountId?: number | undefined;
  /** HTTP status; undefined when no answer arrived or the client refused to send. */
  status?: number | undefined;
  /** The `error` code of the service's body, also when `code` is a client code (e.g. 500 on a write). */
  serviceCode?: string | undefined;
  causes?: readonly Cause[] | undefined;
  retryAfterMs?: number | undefined;
  /** HTTP requests made for this call (first attempt plus resends). */
  attempts?: number | undefined;
  /** Defaults to true for kind 'ambiguous_write'; also set for a malformed answer to a write. */
  ambiguous?: boolean | undefined;
  /**
   * For a write whose answer was lost (timeout, reset after sending): how long after this error the
   * request may still be processed and commit on the service's side. Re-checking earlier can miss a
   * late commit and resend, which duplicates what the service does not de-duplicate (invoices).
   */
  inFlightForMs?: number | undefined;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly code: string;
  readonly operation: string;
  readonly accountId: number | undefined;
  readonly status: number | undefined;
  readonly serviceCode: string | undefined;
  readonly causes: readonly Cause[];
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;
  /**
   * True when a write may have been applied although the call failed: the caller must re-check
   * (existence check / lookup) before sending it again: a blind resend could create the record
   * twice (docs/once-only.md).
   */
  readonly ambiguous: boolean;
  /** See ApiErrorInit.inFlightForMs; undefined when the service answered (the request is over). */
  readonly inFlightForMs: number | undefined;

  constructor(init: ApiErrorInit) {
    // Every ApiError carries text a server chose (its message, its causes): take the process's
    // secrets out here, in every encoding, so neither logs nor outcome messages nor summaries get them.
    super(secrets.scrub(init.message), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code;
    this.operation = init.operation;
    this.accountId = init.accountId;
    this.status = init.status;
    this.serviceCode = init.serviceCode;
    this.causes = init.causes && init.causes.length > 0 ? secrets.scrubDeep(init.causes) : [];
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 0;
    this.ambiguous = init.ambiguous ?? init.kind === 'ambiguous_write';
    this.inFlightForMs = init.inFlightForMs;
  }

  /** A plain object for structured logs (never carries tokens or the client secret). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      code: this.code,
      message: this.message,
      operation: this.operation,
      accountId: this.accountId,
      status: this.status,
      serviceCode: this.serviceCode,
      causes: this.causes,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
      ambiguous: this.ambiguous,
      inFlightForMs: this.inFlightForMs,
    };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** "createTransactionsBulk for account 42" — the prefix of every message. */
export function target(operation: string, accountId: number | undefined): string {
  return accountId === undefined ? operation : `${operation} for account ${accountId}`;
}

/** What to do about a service error, by status (the service's message must not be matched on). */
export function adviceForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'the service refused the request as invalid; fix what the causes name before sending it again';
    case 401:
      return 'the service refused the access token even after renewing it; check PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET and that the credentials are still active';
    case 403:
      return 'the credentials may not do this (account not accessible or scope missing); check the account id and the scopes granted to the partner';
    case 404:
      return 'the account or resource does not exist; check the ids';
    case 409:
      return 'the request conflicts with the current state; re-read the resource and decide what to change';
    case 429:
      return 'rate limited for longer than one call may wait; pause work for this account and retry after retryAfterMs';
    case 500:
      return 'the service failed after every retry; try again later and report it to the service if it persists';
    default:
      return 'unexpected answer from the service; try again later';
  }
}
