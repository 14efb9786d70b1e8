import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { OperationName, OperationSpec } from '../contract/index.js';
import type { Clock } from '../time/clock.js';
import { ApiError, CLIENT_ERROR_CODES, target } from './errors.js';
import type { Alert, ClientHooks } from './hooks.js';
import { type CallContext, readErrorBody, serviceError } from './response.js';
import {
  isRetryableStatus,
  type RateLimitPolicy,
  type RetryPolicy,
  retryAfterMs,
  retryDelayMs,
} from './retry-policy.js';
import type { TokenProvider } from './token-provider.js';
import { type HttpResponse, send, TransportError } from './transport.js';

export interface LoopDeps {
  dispatcher: Dispatcher;
  tokens: TokenProvider;
  clock: Clock;
  logger: Logger;
  hooks: ClientHooks;
  retry: RetryPolicy;
  rateLimit: RateLimitPolicy;
  /**
   * After a write's answer was lost, how long the request may still commit on the service's side
   * (carried on the AMBIGUOUS_WRITE error as inFlightForMs; see client-core for the default).
   */
  inFlightGraceMs: number;
}

export interface Exchange {
  operation: OperationName;
  spec: OperationSpec;
  accountId: number | undefined;
  url: URL;
  /** The JSON body's UTF-8 bytes (jsonBytes), encoded once for every attempt. */
  body: Uint8Array | undefined;
  signal: AbortSignal | undefined;
  /** isIdempotent(spec): a read that may be resent after an unknown outcome. */
  idempotent: boolean;
  /** Caller's opt-in to resend a non-idempotent write after a 500 or a lost answer. */
  retryWrites: boolean;
}

/**
 * Sends one call and applies the retry policy; resolves with the 2xx answer, rejects with ApiError
 * (or the abort reason). Per attempt:
 * - 2xx: done.
 * - 401: the token is renewed once and the request sent once more; a second 401 fails.
 * - 429: wait as Retry-After says (default/cap in RateLimitPolicy) without using up a retry, after
 *   telling the gate; bounded per call by the total wait maxTotalWaitMsPerCall (and maxWaitsPerCall
 *   when a caller sets one).
 * - 500, network error, timeout: retried after 1, 2, 4 s, then fail and alert — for idempotent
 *   operations only. A non-idempotent write (bulk create, create, update, delete, convert) fails
 *   at once as AMBIGUOUS_WRITE instead, unless the caller set `retryWrites`. Why: a bulk create
 *   answered with a 500 or a reset may have committed some or all items, and resending blindly
 *   could create duplicates of items without an externalId. undici leaves POST out of its
 *   retryable methods for the same reason. The sync engine re-runs the
 *   existence check and resends only what is missing, on the same 1/2/4 s schedule via
 *   `retryDelayMs`. A connection that was never established carried no request, so that is
 *   retried for writes too.
 * - 502, 503, 504 on a read (GET, existence check): retried like a 500 (readRetryStatuses); on a
 *   write they are ambiguous like a 500.
 * - 400, 403, 404, 409 and any other status: never retried; the request must change.
 */
export async function sendWithPolicy(
  deps: LoopDeps,
  exchange: Exchange,
): Promise<{ response: HttpResponse; attempts: number }> {
  const { clock, hooks, logger, tokens } = deps;
  const { operation, spec, accountId, signal } = exchange;
  const resendable = exchange.idempotent || exchange.retryWrites;
  const ctx: CallContext = { operation, accountId, idempotent: exchange.idempotent, attempts: 0 };
  let retries = 0;
  let renewed = false;
  let rateLimitWaits = 0;
  let rateLimitWaitedMs = 0;

  /** The next 1/2/4 s wait, or undefined once the policy is exhausted. */
  const nextRetryDelay = () => retryDelayMs(retries + 1, deps.retry);
  const wait = async (ms: number) => {
    await clock.sleep(ms, signal);
  };

  for (;;) {
    signal?.throwIfAborted();
    await hooks.beforeRequest?.({
      operation,
      accountId,
      method: spec.method,
      scope: spec.scope,
      attempt: ctx.attempts + 1,
      signal,
    });
    const token = await tokens.getToken(signal);
    ctx.attempts += 1;
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
    if (spec.accountHeader && accountId !== undefined) headers['x-account-id'] = String(accountId);
    if (exchange.body !== undefined) headers['content-type'] = 'application/json';

    let response: HttpResponse;
    try {
      response = await send(deps.dispatcher, {
        method: spec.method,
        url: exchange.url,
        headers,
        body: exchange.body,
        signal,
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      const log = {
        operation,
        accountId,
        method: spec.method,
        path: exchange.url.pathname,
        attempt: ctx.attempts,
      };
      logger.debug(
        { ...log, failure: error.failure, errorCode: error.errorCode },
        'partner api request failed',
      );
      const attempt = { operation, accountId, attempt: ctx.attempts, status: 'network' as const };
      notify(logger, () => hooks.onAttempt?.(attempt));
      if (!resendable && error.sent) throw ambiguousAfterTransport(ctx, error, deps.inFlightGraceMs);
      const delay = nextRetryDelay();
      if (delay === undefined) throw raiseAlert(deps, transportFailure(ctx, error));
      retries += 1;
      logger.warn({ ...log, failure: error.failure, delayMs: delay }, 'retrying after a network failure');
      notify(logger, () => hooks.onRetry?.({ ...attempt, delayMs: delay }));
      await wait(delay);
      continue;
    }

    const { status } = response;
    logger.debug(
      {
        operation,
        accountId,
        method: spec.method,
        path: exchange.url.pathname,
        status,
        durationMs: response.durationMs,
        attempt: ctx.attempts,
      },
      'partner api request',
    );
    notify(logger, () => hooks.onAttempt?.({ operation, accountId, attempt: ctx.attempts, status }));
    if (status >= 200 && status < 300) return { response, attempts: ctx.attempts };

    if (status === 401 && !renewed) {
      renewed = true;
      tokens.invalidate(token);
      continue;
    }

    const body = readErrorBody(response.text);
    const scrub = (text: string) => tokens.scrub(text);
    if (status === 429) {
      const waitMs = retryAfterMs(response.headers['retry-after'], clock.now(), deps.rateLimit);
      notify(logger, () =>
        hooks.onRateLimited?.({ operation, accountId, scope: spec.scope, retryAfterMs: waitMs }),
      );
      const { maxWaitsPerCall, maxTotalWaitMsPerCall } = deps.rateLimit;
      if (rateLimitWaits >= maxWaitsPerCall || rateLimitWaitedMs + waitMs > maxTotalWaitMsPerCall) {
        throw serviceError(ctx, status, body, scrub, { retryAfterMs: waitMs });
      }
      rateLimitWaits += 1;
      rateLimitWaitedMs += waitMs;
      logger.info(
        { operation, accountId, retryAfterMs: waitMs },
        'rate limited; waiting as Retry-After says',
      );
      await wait(waitMs);
      continue;
    }

    if (status >= 500 && !resendable) throw ambiguousAfterStatus(ctx, status, body.code);
    if (isRetryableStatus(status, deps.retry, exchange.idempotent)) {
      const delay = nextRetryDelay();
      if (delay === undefined) throw raiseAlert(deps, serviceError(ctx, status, body, scrub));
      retries += 1;
      logger.warn({ operation, accountId, status, delayMs: delay }, 'retrying after a server error');
      notify(logger, () =>
        hooks.onRetry?.({ operation, accountId, attempt: ctx.attempts, status, delayMs: delay }),
      );
      await wait(delay);
      continue;
    }
    throw serviceError(ctx, status, body, scrub);
  }
}

/** Runs a hook that must not break the call; a throwing hook is logged and ignored. */
function notify(logger: Logger, hook: () => void): void {
  try {
    hook();
  } catch (error) {
    logger.warn({ err: error }, 'client hook threw; ignored');
  }
}

function raiseAlert(deps: LoopDeps, error: ApiError): ApiError {
  const alert: Alert = {
    operation: error.operation,
    accountId: error.accountId,
    code: error.code,
    status: error.status,
    attempts: error.attempts,
    message: error.message,
  };
  deps.logger.error({ alert: true, ...alert }, 'partner api call failed after every retry');
  notify(deps.logger, () => deps.hooks.onAlert?.(alert));
  return error;
}

function transportFailure(ctx: CallContext, error: TransportError): ApiError {
  const code =
    error.failure === 'unreachable'
      ? CLIENT_ERROR_CODES.SERVICE_UNREACHABLE
      : error.failure === 'timeout'
        ? CLIENT_ERROR_CODES.TIMEOUT
        : CLIENT_ERROR_CODES.NETWORK_ERROR;
  const what =
    error.failure === 'unreachable'
      ? 'cannot reach the service'
      : error.failure === 'timeout'
        ? 'the service did not answer in time'
        : 'the connection to the service failed';
  return new ApiError({
    kind: 'network',
    code,
    operation: ctx.operation,
    accountId: ctx.accountId,
    attempts: ctx.attempts,
    message: `${target(ctx.operation, ctx.accountId)}: ${what} (${error.errorCode ?? error.failure}) after ${ctx.attempts} attempts; check PARTNER_API_URL and the network, then try again later`,
    cause: error,
  });
}

const RECHECK = 're-check which records exist (existence check or lookup) before sending them again';

function ambiguousAfterTransport(ctx: CallContext, error: TransportError, inFlightForMs: number): ApiError {
  return new ApiError({
    kind: 'ambiguous_write',
    code: CLIENT_ERROR_CODES.AMBIGUOUS_WRITE,
    operation: ctx.operation,
    accountId: ctx.accountId,
    attempts: ctx.attempts,
    inFlightForMs,
    message: `${target(ctx.operation, ctx.accountId)}: the answer was lost (${error.errorCode ?? error.failure}) after the request was sent, so the write may or may not have been applied; ${RECHECK}`,
    cause: error,
  });
}

function ambiguousAfterStatus(ctx: CallContext, status: number, serviceCode: string | undefined): ApiError {
  return new ApiError({
    kind: 'ambiguous_write',
    code: CLIENT_ERROR_CODES.AMBIGUOUS_WRITE,
    operation: ctx.operation,
    accountId: ctx.accountId,
    status,
    serviceCode,
    attempts: ctx.attempts,
    message: `${target(ctx.operation, ctx.accountId)}: the service answered ${status}${serviceCode ? ` ${serviceCode}` : ''}, so the write may or may not have been applied; ${RECHECK}`,
  });
}
