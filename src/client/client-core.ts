import type { Logger } from 'pino';
import type { Agent } from 'undici';
import {
  type OperationName,
  type OperationSpec,
  type OperationTable,
  type Page,
  type ResponseOf,
  resolveOperations,
} from '../contract/index.js';
import { createLogger } from '../logging/logger.js';
import { secrets } from '../logging/secret-scrubber.js';
import { type Clock, systemClock } from '../time/clock.js';
import type {
  CallArgs,
  CallOptions,
  PageItem,
  PaginatedOperation,
  RuntimeCallOptions,
} from './call-types.js';
import type { ClientHooks } from './hooks.js';
import { jsonBytes } from './json-body.js';
import { checkRequestLimits } from './limits.js';
import { iteratePages } from './pagination.js';
import { buildUrl } from './request.js';
import { parseSuccess } from './response.js';
import { isIdempotent, RATE_LIMIT_DEFAULTS, RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { type LoopDeps, sendWithPolicy } from './send-loop.js';
import { TokenProvider } from './token-provider.js';
import { createAgent } from './transport.js';

/** Settings; the field names match PartnerConfig from src/config/partner-env.ts. */
export interface PartnerClientSettings {
  /** `{base_url}`, ending in /v2. */
  baseUrl: string;
  /** `{auth_url}`; the token endpoint is `{auth_url}/oauth2/token`. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  connections?: number;
  tokenRenewMarginMs?: number;
  retryAfterDefaultMs?: number;
  retryAfterMaxMs?: number;
  /** Per call: give up after this much accumulated 429 waiting (default 900 000 ms). */
  rateLimitMaxTotalWaitMs?: number;
  /** Per call: give up after this many 429 waits (default: no count cap, only the total wait). */
  rateLimitMaxWaits?: number;
  /**
   * After a write's answer was lost (headers/body timeout, reset after sending): how long the
   * request may still commit on the service's side, i.e. how long nothing of it is re-checked or
   * resent. Default: twice the headers timeout (inFlightGraceMs()). docs/once-only.md.
   */
  inFlightGraceMs?: number;
}

/**
 * The default in-flight bound: the client already waited one headers timeout before giving up;
 * the service gets twice that again to finish the request. A service slower than three headers
 * timeouts on one request is outside what the client tolerates on any call.
 */
function inFlightGraceMs(headersTimeoutMs: number): number {
  return 2 * headersTimeoutMs;
}

/** Ports and overrides, injected at the composition root. */
export interface PartnerClientDeps {
  logger?: Logger;
  clock?: Clock;
  hooks?: ClientHooks;
  /** A deployment's operation table (resolveOperations with path overrides). */
  operations?: OperationTable;
  /** Tests and the sync engine keep the spec's policy; exposed so nobody copies the numbers. */
  retryPolicy?: RetryPolicy;
}

export const CLIENT_DEFAULTS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 60_000,
  bodyTimeoutMs: 60_000,
  connections: 16,
  tokenRenewMarginMs: 60_000,
} as const;

/**
 * The generic, table-driven half of the client: `call` sends any operation of OPERATIONS with the
 * tenant given per call, so one instance serves many tenants concurrently.
 */
export class PartnerClientCore {
  protected readonly logger: Logger;
  readonly #agent: Agent;
  readonly #deps: LoopDeps;
  readonly #operations: OperationTable;
  readonly #baseUrl: string;

  constructor(settings: PartnerClientSettings, deps: PartnerClientDeps = {}) {
    this.logger = deps.logger ?? createLogger({ level: 'silent' });
    const clock = deps.clock ?? systemClock;
    this.#agent = createAgent({
      connectTimeoutMs: settings.connectTimeoutMs ?? CLIENT_DEFAULTS.connectTimeoutMs,
      headersTimeoutMs: settings.headersTimeoutMs ?? CLIENT_DEFAULTS.headersTimeoutMs,
      bodyTimeoutMs: settings.bodyTimeoutMs ?? CLIENT_DEFAULTS.bodyTimeoutMs,
      connections: settings.connections ?? CLIENT_DEFAULTS.connections,
    });
    this.#operations = deps.operations ?? resolveOperations();
    this.#baseUrl = settings.baseUrl.replace(/\/+$/, '');
    const rateLimit = {
      defaultMs: settings.retryAfterDefaultMs ?? RATE_LIMIT_DEFAULTS.defaultMs,
      maxMs: settings.retryAfterMaxMs ?? RATE_LIMIT_DEFAULTS.maxMs,
      maxWaitsPerCall: settings.rateLimitMaxWaits ?? RATE_LIMIT_DEFAULTS.maxWaitsPerCall,
      maxTotalWaitMsPerCall: settings.rateLimitMaxTotalWaitMs ?? RATE_LIMIT_DEFAULTS.maxTotalWaitMsPerCall,
    };
    const retry = deps.retryPolicy ?? RETRY_POLICY;
    const headersTimeoutMs = settings.headersTimeoutMs ?? CLIENT_DEFAULTS.headersTimeoutMs;
    const tokens = new TokenProvider({
      tokenUrl: new URL(`${settings.authUrl.replace(/\/+$/, '')}/oauth2/token`),
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      renewMarginMs: settings.tokenRenewMarginMs ?? CLIENT_DEFAULTS.tokenRenewMarginMs,
      dispatcher: this.#agent,
      clock,
      logger: this.logger,
      rateLimit,
      retry,
    });
    this.#deps = {
      dispatcher: this.#agent,
      tokens,
      clock,
      logger: this.logger,
      hooks: deps.hooks ?? {},
      retry,
      rateLimit,
      inFlightGraceMs: settings.inFlightGraceMs ?? inFlightGraceMs(headersTimeoutMs),
    };
  }

  /**
   * Sends operation `name` and parses the answer with the contract's tolerant response schema.
   * Rejects with ApiError (see errors.ts) or, when `signal` aborts, with its reason.
   */
  async call<N extends OperationName>(name: N, ...args: CallArgs<N>): Promise<ResponseOf<N>> {
    const options: RuntimeCallOptions = args[0] ?? {};
    const spec: OperationSpec = this.#operations[name];
    if (!spec) throw new TypeError(`unknown operation "${String(name)}"`);
    const accountId = spec.accountHeader ? requireAccountId(name, options.accountId) : undefined;
    checkRequestLimits(name, accountId, options.body, options.query);
    const idempotent = isIdempotent(spec);
    const { response, attempts } = await sendWithPolicy(this.#deps, {
      operation: name,
      spec,
      accountId,
      url: buildUrl(this.#baseUrl, spec.path, options.params, options.query),
      // Not zod-validated: the sync engine has validated each record and reports per record.
      body: options.body === undefined ? undefined : jsonBytes(options.body),
      signal: options.signal,
      idempotent,
      retryWrites: options.retryWrites ?? false,
    });
    const ctx = { operation: name, accountId, idempotent, attempts };
    const result = parseSuccess(ctx, spec.response, response) as ResponseOf<N>;
    // An SSO init token is a credential for its user until it expires: keep it out of logs too.
    if (name === 'ssoInit') secrets.addRotating((result as ResponseOf<'ssoInit'>).initToken);
    return result;
  }

  /** Every page of a paginated operation, following the spec's iteration rule. */
  pages<N extends PaginatedOperation>(name: N, options: CallOptions<N>): AsyncGenerator<ResponseOf<N>> {
    const base = options as RuntimeCallOptions;
    const query = (base.query ?? {}) as Record<string, unknown>;
    const send = this.call as (n: N, o: RuntimeCallOptions) => Promise<Page<unknown>>;
    const fetchPage = (page: number) => send.call(this, name, { ...base, query: { ...query, page } });
    const first = typeof query.page === 'number' ? query.page : 0;
    return iteratePages(fetchPage, first) as AsyncGenerator<ResponseOf<N>>;
  }

  /** Every item of every page. */
  async *items<N extends PaginatedOperation>(name: N, options: CallOptions<N>): AsyncGenerator<PageItem<N>> {
    for await (const page of this.pages(name, options)) {
      yield* (page as unknown as { data: PageItem<N>[] }).data;
    }
  }

  /** Every item of every page, for lists bounded by the service (an account's users, the partner's accounts). */
  async all<N extends PaginatedOperation>(name: N, options: CallOptions<N>): Promise<PageItem<N>[]> {
    const all: PageItem<N>[] = [];
    for await (const item of this.items(name, options)) all.push(item);
    return all;
  }

  /**
   * Resolves once an access token is at hand (the cached one while it is valid, else a new one):
   * proof that the authorization server accepts the credentials (readiness checks). Rejects with
   * the token error (AUTH_REJECTED, AUTH_UNREACHABLE, ...). The token itself never leaves the client.
   */
  async ensureToken(signal?: AbortSignal): Promise<void> {
    await this.#deps.tokens.getToken(signal);
  }

  /** Closes the keep-alive connections; the client is unusable afterwards. */
  async close(): Promise<void> {
    await this.#agent.close();
  }
}

function requireAccountId(operation: string, accountId: number | undefined): number {
  if (accountId === undefined || !Number.isSafeInteger(accountId)) {
    throw new TypeError(`${operation} needs the tenant: pass accountId as a safe integer (X-Account-Id)`);
  }
  return accountId;
}
