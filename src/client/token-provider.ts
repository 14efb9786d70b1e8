import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import { OAuthErrorBody, TokenResponse } from '../contract/index.js';
import { secrets } from '../logging/secret-scrubber.js';
import { type Clock, raceAbort } from '../time/clock.js';
import { ApiError, CLIENT_ERROR_CODES } from './errors.js';
import { issuesText } from './response.js';
import {
  isRetryableStatus,
  type RateLimitPolicy,
  type RetryPolicy,
  retryAfterMs as retryAfterFromHeader,
  retryDelayMs,
} from './retry-policy.js';
import { type HttpResponse, send, TransportError } from './transport.js';

export interface TokenProviderOptions {
  /** `{auth_url}/oauth2/token`. */
  tokenUrl: URL;
  clientId: string;
  clientSecret: string;
  /** Renew this long before `expires_in` runs out. */
  renewMarginMs: number;
  dispatcher: Dispatcher;
  clock: Clock;
  logger: Logger;
  /** Default and cap for a Retry-After on a 429 from the token endpoint (reported, not waited). */
  rateLimit: Pick<RateLimitPolicy, 'defaultMs' | 'maxMs'>;
  /** The client's retry policy (delays and retryable statuses), the same as for API calls. */
  retry: RetryPolicy;
}

interface CachedToken {
  token: string;
  renewAt: number;
}

/** OAuth error codes that mean "these credentials are wrong", not "the request is wrong". */
const REJECTED = new Set(['invalid_client', 'unauthorized_client', 'invalid_grant', 'access_denied']);
const OPERATION = 'token';

/**
 * OAuth 2.0 client credentials. One token serves every tenant (spec, Authentication 9), so it is
 * cached once per client; concurrent callers share one in-flight request (single-flight) so a burst
 * of 50 chunks starting together costs one token request, not 50.
 */
export class TokenProvider {
  readonly #options: TokenProviderOptions;
  #cached: CachedToken | undefined;
  #inflight: Promise<string> | undefined;
  /** Every token handed out, so `scrub` can take them out of any text that echoes one. */
  readonly #issued = new Set<string>();

  constructor(options: TokenProviderOptions) {
    this.#options = options;
    // Known to the process's scrubber, so no form of it (URL-encoded, JSON-escaped, base64) that a
    // server echoes reaches a log line or a report.
    secrets.add(options.clientSecret);
  }

  /** A valid access token; a caller's abort stops its wait but not the request others share. */
  getToken(signal?: AbortSignal): Promise<string> {
    const cached = this.#cached;
    if (cached && this.#options.clock.now() < cached.renewAt) return Promise.resolve(cached.token);
    if (!this.#inflight) {
      this.#inflight = this.#fetchWithRetries().finally(() => {
        this.#inflight = undefined;
      });
    }
    return raceAbort(this.#inflight, signal);
  }

  /**
   * Drops `token` after the API refused it (401). Only the token that was refused is dropped, so
   * twenty calls failing with the same stale token cause one renewal, not twenty.
   */
  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  /** Replaces the client secret and any issued token, in any encoding, in text that leaves the client. */
  scrub(text: string): string {
    let out = secrets.scrub(text);
    // Raw, also for values too short for the process's scrubber.
    for (const secret of [this.#options.clientSecret, ...this.#issued]) {
      if (secret) out = out.split(secret).join('[REDACTED]');
    }
    return out;
  }

  /** Requesting a token has no side effect, so network failures and 500s get the 1/2/4 s retries. */
  async #fetchWithRetries(): Promise<string> {
    for (let retry = 0; ; retry++) {
      try {
        return await this.#fetchOnce(retry + 1);
      } catch (error) {
        const policy = this.#options.retry;
        const transient = error instanceof ApiError && error.kind === 'auth' && isTransient(error, policy);
        const delay = transient ? retryDelayMs(retry + 1, policy) : undefined;
        if (delay === undefined) {
          // An expected failure: what and what to do, as the API call alerts say it; no stack.
          if (transient) {
            const { code, status, attempts, message } = error;
            this.#options.logger.error(
              { alert: true, operation: OPERATION, code, status, attempts, message: this.scrub(message) },
              'token endpoint failing',
            );
          }
          throw error;
        }
        this.#options.logger.warn(
          { operation: OPERATION, code: (error as ApiError).code, delay },
          'retrying',
        );
        await this.#options.clock.sleep(delay);
      }
    }
  }

  async #fetchOnce(attempt: number): Promise<string> {
    const { tokenUrl, clientId, clientSecret, clock, dispatcher, logger } = this.#options;
    const startedAt = clock.now();
    let response: HttpResponse;
    try {
      response = await send(dispatcher, {
        method: 'POST',
        url: tokenUrl,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
        }).toString(),
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      throw new ApiError({
        kind: 'auth',
        code: CLIENT_ERROR_CODES.AUTH_UNREACHABLE,
        operation: OPERATION,
        attempts: attempt,
        message: `cannot reach the authorization server at ${tokenUrl.origin} (${error.failure}${error.errorCode ? `, ${error.errorCode}` : ''}); check PARTNER_AUTH_URL and the network`,
        cause: error,
      });
    }
    logger.debug({ operation: OPERATION, status: response.status, durationMs: response.durationMs }, 'token');
    if (response.status === 200) return this.#accept(response, startedAt, attempt);
    throw this.#refusal(response, attempt);
  }

  #accept(response: HttpResponse, startedAt: number, attempt: number): string {
    const parsed = TokenResponse.safeParse(safeJson(response.text));
    if (!parsed.success) {
      throw new ApiError({
        kind: 'auth',
        code: CLIENT_ERROR_CODES.AUTH_FAILED,
        operation: OPERATION,
        status: response.status,
        attempts: attempt,
        // Only zod's issue paths and messages: the body itself may hold a token.
        message: `the authorization server answered 200 without a usable token (${issuesText(parsed.error.issues)}); check PARTNER_AUTH_URL`,
      });
    }
    const lifetimeMs = parsed.data.expires_in * 1_000;
    // A margin longer than the token's life would renew on every call; renew at half-life then.
    const validForMs = Math.max(lifetimeMs - this.#options.renewMarginMs, lifetimeMs / 2);
    const token = parsed.data.access_token;
    this.#cached = { token, renewAt: startedAt + validForMs };
    this.#issued.add(token);
    secrets.addRotating(token);
    return token;
  }

  #refusal(response: HttpResponse, attempt: number): ApiError {
    const body = OAuthErrorBody.safeParse(safeJson(response.text));
    const oauthCode = body.success ? body.data.error : undefined;
    const description = body.success && body.data.error_description ? `: ${body.data.error_description}` : '';
    const detail = this.scrub(`${response.status}${oauthCode ? ` ${oauthCode}` : ''}${description}`);
    const rejected =
      response.status === 401 ||
      response.status === 403 ||
      (oauthCode !== undefined && REJECTED.has(oauthCode));
    return new ApiError({
      kind: 'auth',
      code: rejected ? CLIENT_ERROR_CODES.AUTH_REJECTED : CLIENT_ERROR_CODES.AUTH_FAILED,
      operation: OPERATION,
      status: response.status,
      serviceCode: oauthCode,
      attempts: attempt,
      retryAfterMs:
        response.status === 429
          ? retryAfterFromHeader(
              response.headers['retry-after'],
              this.#options.clock.now(),
              this.#options.rateLimit,
            )
          : undefined,
      message: rejected
        ? `the authorization server refused the client credentials (${detail}); check PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET`
        : `the authorization server failed to issue a token (${detail}); check PARTNER_AUTH_URL and try again later`,
    });
  }
}

function isTransient(error: ApiError, policy: RetryPolicy): boolean {
  return (
    error.code === CLIENT_ERROR_CODES.AUTH_UNREACHABLE ||
    (error.status !== undefined && isRetryableStatus(error.status, policy))
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
