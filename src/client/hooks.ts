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

export interface Alert {
  operation: string;
  accountId: number | undefined;
  code: string;
  status: number | undefined;
  attempts: number;
  message: string;
}

/**
 * Side effects the client leaves to its owner (design.md example 3): the gate delays request
 * starts and hears about 429s to pause a scope fleet-wide; the alert sink hears about calls that
 * failed after every retry (spec: "after 3 retries log and alert").
 */
export interface ClientHooks {
  /** Awaited before every request; may delay it (fleet-wide pause) or throw to cancel the call. */
  beforeRequest?(start: RequestStart): Promise<void> | void;
  /** Told about every 429 before the client waits; must not throw (errors are logged and ignored). */
  onRateLimited?(info: RateLimited): void;
  /** Told when retries are exhausted; must not throw (errors are logged and ignored). */
  onAlert?(alert: Alert): void;
}
