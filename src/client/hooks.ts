import type { OperationName, Scope } from '../contract/index.js';

/** What a gate sees before each HTTP request (first attempt and every resend). */
export interface RequestStart {
  operation: OperationName;
  accountId: number | undefined;
  method: string;
  /** Scope the operation needs (api:read / api:write; null = any token): what a fleet pause covers. */
  scope: Scope | null;
  /** 1 for the first request of the call, then 2, 3, ... for resends. */
  attempt: number;
  signal: AbortSignal | undefined;
}

export interface RateLimited {
  operation: OperationName;
  accountId: number | undefined;
  scope: Scope | null;
  /** The wait the service asked for, after the default and cap were applied. */
  retryAfterMs: number;
}

/** The result of one HTTP attempt: its status, or "network" when no answer came (reset, timeout, refused). */
export interface Attempt {
  operation: OperationName;
  accountId: number | undefined;
  /** 1 for the first request of the call, then 2, 3, ... for resends. */
  attempt: number;
  status: number | 'network';
}

/** A resend by the retry policy (a 500 or a network failure); 429 waits and 401 renewals are not. */
export interface Retry {
  operation: OperationName;
  accountId: number | undefined;
  /** The attempt that failed; the resend is attempt + 1. */
  attempt: number;
  status: number | 'network';
  delayMs: number;
}

export interface Alert {
  operation: string;
  accountId: number | undefined;
  code: string;
  status: number | undefined;
  attempts: number;
  message: string;
}

/**
 * Side effects the client leaves to its owner, so the client knows nothing of gates, alerts or
 * metrics and each runner plugs in its own: the gate delays request starts and hears about 429s to pause a scope fleet-wide; the alert sink hears about calls that
 * failed after every retry (spec: "after 3 retries log and alert"); metrics hear every attempt
 * and every retry.
 */
export interface ClientHooks {
  /** Awaited before every request; may delay it (fleet-wide pause) or throw to cancel the call. */
  beforeRequest?(start: RequestStart): Promise<void> | void;
  /** Told about every 429 before the client waits; must not throw (errors are logged and ignored). */
  onRateLimited?(info: RateLimited): void;
  /** Told when retries are exhausted; must not throw (errors are logged and ignored). */
  onAlert?(alert: Alert): void;
  /** Told the result of every HTTP attempt; must not throw (errors are logged and ignored). */
  onAttempt?(attempt: Attempt): void;
  /** Told before each resend after a 500 or a network failure; must not throw (errors are logged and ignored). */
  onRetry?(retry: Retry): void;
}

type Listener = Exclude<keyof ClientHooks, 'beforeRequest'>;

/**
 * Several owners' hooks as one (the gate's and the metrics', say): `beforeRequest` runs them in
 * order; each listener is told even when an earlier one threw (the first error is rethrown after,
 * for the client to log).
 */
export function combineHooks(...all: readonly ClientHooks[]): ClientHooks {
  const tell =
    <K extends Listener>(name: K) =>
    (info: Parameters<NonNullable<ClientHooks[K]>>[0]): void => {
      let failure: { error: unknown } | undefined;
      for (const hooks of all) {
        try {
          (hooks[name] as ((value: typeof info) => void) | undefined)?.(info);
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure) throw failure.error;
    };
  return {
    beforeRequest: async (start) => {
      for (const hooks of all) await hooks.beforeRequest?.(start);
    },
    onRateLimited: tell('onRateLimited'),
    onAlert: tell('onAlert'),
    onAttempt: tell('onAttempt'),
    onRetry: tell('onRetry'),
  };
}
