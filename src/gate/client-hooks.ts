import type { Logger } from 'pino';
import type { ClientHooks } from '../client/index.js';
import type { Clock } from '../time/clock.js';
import type { ScopePauses } from './gate.js';

/** The pause scope of a 429: every request made with these partner credentials. */
export const partnerScope = (clientId: string) => `partner:${clientId}`;

/**
 * The client hooks that make a 429 pause fleet-wide: the 429's Retry-After pauses the scope in
 * the gate (in memory for `sync`, in Redis for the fleet), and no request of the scope starts
 * until the pause has passed. Calls that fail after every retry are logged as alerts by the
 * client itself (send-loop.ts), not here, so one failure is one alert.
 */
export function gateHooks(
  gate: ScopePauses,
  scope: string,
  clock: Clock,
  logger: Logger,
): Required<Pick<ClientHooks, 'beforeRequest' | 'onRateLimited'>> {
  return {
    beforeRequest: (start) => gate.waitUntilOpen(scope, start.signal),
    onRateLimited: (info) => {
      logger.warn(
        { operation: info.operation, tenant: info.accountId, retryAfterMs: info.retryAfterMs },
        'rate limited: pausing every request of these credentials',
      );
      void gate
        .pause(scope, clock.now() + info.retryAfterMs)
        .catch((error: unknown) => logger.error({ err: error }, 'could not store the rate-limit pause'));
    },
  };
}
