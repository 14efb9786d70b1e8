import type { ClientHooks } from '../client/index.js';
import type { Metrics } from './metrics.js';

/**
 * Client hooks that count every HTTP attempt (by operation and status, "network" when no answer
 * came), every resend of the retry policy and every 429 (each one pauses the credentials).
 * Combine them with the gate's hooks (combineHooks).
 */
export function metricsHooks(metrics: Metrics): ClientHooks {
  return {
    onAttempt: ({ operation, status }) => metrics.httpRequests.inc({ operation, status: String(status) }),
    onRetry: ({ operation }) => metrics.retries.inc({ operation }),
    onRateLimited: ({ operation }) => metrics.rateLimitPauses.inc({ operation }),
  };
}
