/**
 * The retry policy as plain data plus pure functions, so tests check the schedule without sending
 * a request. The request loop in send-loop.ts applies it; the sync engine reuses `retryDelayMs`
 * for its own "existence check, then resend what is missing" schedule, so both wait the same
 * 1/2/4 s.
 */

export const RETRY_POLICY = {
  /** Spec, Retry strategy: "Retry only 500 responses". 400/401/403/404/409 are never retried. */
  retryStatuses: [500],
  /**
   * Our addition for reads only (GET, the existence check): a 502, 503 or 504 comes from a proxy or
   * an overloaded service and changes nothing, so resending a read is safe and spares the whole
   * chunk failing on one gateway hiccup. Same 1/2/4 s schedule. Writes keep the spec's rule: a 5xx
   * on a write is ambiguous (re-check, never resend blindly). docs/once-only.md.
   */
  readRetryStatuses: [500, 502, 503, 504],
  /** Spec: "wait 1, 2, then 4 seconds between attempts"; after the third retry: log and alert. */
  delaysMs: [1_000, 2_000, 4_000],
} as const satisfies {
  retryStatuses: readonly number[];
  readRetryStatuses: readonly number[];
  delaysMs: readonly number[];
};

export type RetryPolicy = {
  readonly retryStatuses: readonly number[];
  /** Statuses retried for idempotent operations (reads); defaults to retryStatuses when absent. */
  readonly readRetryStatuses?: readonly number[];
  readonly delaysMs: readonly number[];
};

/** How many retries the policy allows after the first attempt (3). */
export function maxRetries(policy: RetryPolicy = RETRY_POLICY): number {
  return policy.delaysMs.length;
}

/**
 * Wait before retry number `retry` (1-based: retry 1 waits 1 s, 2 waits 2 s, 3 waits 4 s), or
 * undefined when the policy is exhausted and the caller must fail and alert instead.
 */
export function retryDelayMs(retry: number, policy: RetryPolicy = RETRY_POLICY): number | undefined {
  if (!Number.isInteger(retry) || retry < 1) return undefined;
  return policy.delaysMs[retry - 1];
}

/** Whether `status` is retried; `read` (an idempotent operation) also retries readRetryStatuses. */
export function isRetryableStatus(status: number, policy: RetryPolicy = RETRY_POLICY, read = false): boolean {
  if (read && (policy.readRetryStatuses ?? []).includes(status)) return true;
  return policy.retryStatuses.includes(status);
}

/**
 * 429 handling. The spec says only "wait as Retry-After says"; these bounds are ours:
 * - a missing, unparsable or negative header (or an HTTP-date already in the past, most likely clock
 *   skew) waits `defaultMs`; any single wait is capped at `maxMs` (an absurd header cannot park a
 *   worker for days);
 * - 429 waits do not use up the 500 retries, but one call gives up once `maxTotalWaitMsPerCall` of
 *   accumulated waiting (PARTNER_RATE_LIMIT_MAX_WAIT_S) would be exceeded, raising RATE_LIMITED
 *   with `retryAfterMs`, so a call can never hang forever and the caller (the gate) can park the
 *   work instead. The total wait time is the only cap by default: a cap on the count of waits would
 *   fail records after a burst of short waits although the documented cap (900 s) is far away.
 *   `maxWaitsPerCall` is an optional extra bound (unbounded unless set).
 */
export interface RateLimitPolicy {
  readonly defaultMs: number;
  readonly maxMs: number;
  readonly maxWaitsPerCall: number;
  readonly maxTotalWaitMsPerCall: number;
}

export const RATE_LIMIT_DEFAULTS: RateLimitPolicy = {
  defaultMs: 5_000,
  maxMs: 300_000,
  maxWaitsPerCall: Number.POSITIVE_INFINITY,
  maxTotalWaitMsPerCall: 900_000,
};

const DELTA_SECONDS = /^\d+$/;
/** All three HTTP-date forms (IMF-fixdate, RFC 850, asctime) start with a day name. */
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/**
 * Milliseconds to wait after a 429, from a `Retry-After` value (delta-seconds or HTTP-date,
 * RFC 9110 section 10.2.3). Pure: the current time is an argument.
 */
export function retryAfterMs(
  header: string | readonly string[] | undefined,
  nowMs: number,
  policy: Pick<RateLimitPolicy, 'defaultMs' | 'maxMs'> = RATE_LIMIT_DEFAULTS,
): number {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim();
  let waitMs: number | undefined;
  if (raw && DELTA_SECONDS.test(raw)) waitMs = Number(raw) * 1_000;
  else if (raw && HTTP_DATE.test(raw)) {
    // asctime carries no zone but is GMT by definition; Date.parse would read it as local time.
    const at = Date.parse(/GMT$/.test(raw) ? raw : `${raw} GMT`);
    if (Number.isFinite(at) && at > nowMs) waitMs = at - nowMs;
  }
  if (waitMs === undefined || !Number.isFinite(waitMs)) waitMs = policy.defaultMs;
  return Math.min(waitMs, policy.maxMs);
}

/**
 * Whether an operation may be sent again after an unknown outcome (network error, timeout, 500).
 * Reads are: GET, and the existence check, a POST that only reads (its scope is api:read).
 * Every other write is not — see send-loop.ts for why resending is left to the caller.
 */
export function isIdempotent(operation: { readonly method: string; readonly scope: string | null }): boolean {
  return operation.method === 'GET' || operation.scope === 'api:read';
}
