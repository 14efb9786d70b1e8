import { type Clock, systemClock } from '../../time/clock.js';

/**
 * How a remote location retries a transient network error: up to `retries` more attempts, pausing
 * `baseDelayMs`, then twice that each time, never more than `maxDelayMs`. A read that made
 * progress since its last failure starts counting again, so a long file on a flaky line finishes
 * while a server that is down fails within seconds.
 */
export interface RetryPolicy {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  clock: Clock;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 5,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  clock: systemClock,
};

/** The pause before retry number `failure` (1-based). */
export function retryDelay(policy: RetryPolicy, failure: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failure - 1));
}

/** What a location tells its owner (a logger) before it retries. */
export interface RetryEvent {
  /** What failed: `read /in/a.csv at byte 1048576`, `list /in/*.csv`. */
  operation: string;
  /** 1-based number of this retry since the last progress. */
  retry: number;
  delayMs: number;
  error: unknown;
}

/**
 * Runs `attempt` until it succeeds, fails with an error `isTransient` rejects, or the retries are
 * used up; `attempt` gets its 1-based number, so an operation that is not idempotent (a rename)
 * can check whether an earlier attempt whose answer was lost already did its work.
 */
export async function withRetry<T>(
  operation: string,
  policy: RetryPolicy,
  isTransient: (error: unknown) => boolean,
  attempt: (number: number) => Promise<T>,
  onRetry: (event: RetryEvent) => void = () => {},
): Promise<T> {
  for (let number = 1; ; number++) {
    try {
      return await attempt(number);
    } catch (error) {
      if (!isTransient(error) || number > policy.retries) throw error;
      const delayMs = retryDelay(policy, number);
      onRetry({ operation, retry: number, delayMs, error });
      await policy.clock.sleep(delayMs);
    }
  }
}

/**
 * Socket failures a new connection may not meet again (SFTP and S3 alike): reset, refused (a
 * server restarting), timed out, unreachable for a moment, a stream cut off before its end.
 */
export const TRANSIENT_SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ERR_STREAM_PREMATURE_CLOSE',
]);
