import { ApiError } from '../client/index.js';
import { LocationError } from '../sources/locations/location-error.js';
import type { RecordOutcome } from './outcome.js';

/**
 * A condition that makes every further request of the run fail the same way, so the run stops
 * and says what the operator must do. `exitCode` follows the CLI contract: 2 invalid feed or
 * configuration, 3 service unreachable or credentials refused, 1 anything else.
 */
export class RunStopError extends Error {
  override readonly name = 'RunStopError';
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: 1 | 2 | 3,
  ) {
    super(message);
  }
}

/** What a record the run's stop kept from being synced is reported as. */
export function stoppedOutcome(stop: { code: string; message: string }): {
  outcome: 'failed';
  code: string;
  message: string;
} {
  return { outcome: 'failed', code: stop.code, message: `not sent, the run stopped: ${stop.message}` };
}

/**
 * A stop raised inside a chunk, carrying the chunk's outcomes: what it had settled before the stop
 * (a record created or updated earlier in the chunk stays created or updated) and the rest failed
 * with the stop reason. Without it the whole chunk was reported "not sent", also records the
 * service already held (e.g. the bank accounts created before MAX_BANK_ACCOUNTS_REACHED).
 */
export class ChunkStopError extends RunStopError {
  constructor(
    stop: RunStopError,
    readonly outcomes: RecordOutcome[],
  ) {
    super(stop.code, stop.message, stop.exitCode);
  }
}

const ADVICE: Record<string, { exit: 1 | 2 | 3; advice: string }> = {
  BANK_ACCOUNT_NOT_MODIFIABLE: {
    exit: 1,
    advice:
      "the target bank account is not managed by the partner API (provider is not PARTNER); point the feed's bankAccount.externalId at a PARTNER account, or let erp-bridge create one under a new externalId",
  },
  MAX_BANK_ACCOUNTS_REACHED: {
    exit: 1,
    advice:
      "the customer's subscription has no bank-account slot left; hide an unused bank account (visible: false), book an add-on, or target an existing account",
  },
  ACCOUNT_NOT_FOUND: {
    exit: 2,
    advice: "the feed's accountId does not exist; check accountId in the feed file",
  },
  ACCOUNT_ACCESS_DENIED: {
    exit: 3,
    advice:
      "these partner credentials may not access the feed's accountId; check accountId or the partner's access",
  },
  INSUFFICIENT_SCOPE: {
    exit: 3,
    advice: 'the partner credentials lack the api:write scope; ask for write access',
  },
  INVALID_CREDENTIALS: {
    exit: 3,
    advice: 'the service refuses the access token; check PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET',
  },
};

/**
 * Turns an ApiError that dooms the whole run, or a failure of the feed's location (its export
 * files cannot be listed or read: a refused login, a secret not set), into a RunStopError;
 * undefined for per-chunk errors.
 */
export function stopFor(error: unknown): RunStopError | undefined {
  if (error instanceof LocationError) return new RunStopError(error.code, error.message, error.exitCode);
  if (!(error instanceof ApiError)) return undefined;
  if (error.kind === 'auth') {
    const unreachable = error.code === 'AUTH_UNREACHABLE';
    return new RunStopError(
      error.code,
      unreachable
        ? `the authorization server cannot be reached: ${error.message}`
        : `the service refused the credentials: ${error.message}`,
      3,
    );
  }
  if (error.kind === 'network' && error.code === 'SERVICE_UNREACHABLE') {
    return new RunStopError(error.code, `the service cannot be reached: ${error.message}`, 3);
  }
  const known = ADVICE[error.serviceCode ?? error.code];
  if (known)
    return new RunStopError(
      error.serviceCode ?? error.code,
      `${error.message} — ${known.advice}`,
      known.exit,
    );
  if (error.status === 401 || error.status === 403) return new RunStopError(error.code, error.message, 3);
  return undefined;
}
