import { LocationError } from '../locations/location-error.js';

/**
 * A database source's failure, with a stable `code` and a message that names the database by its
 * label (`postgres://host:5432/erp`: never the user's password, which only the URL holds).
 */
export class DatabaseError extends LocationError {
  override readonly name = 'DatabaseError';
  constructor(
    override readonly code: DatabaseErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): 1 | 2 | 3 {
    return DATABASE_EXIT[this.code];
  }
}

/**
 * Settings the feed names (2: the URL's variable, the URL, the table, a column, the query, the
 * time zone), the server refusing or unreachable (3), the rest (1). A statement timeout is 3: the
 * database did not answer in the time the run allows, as a service that does not answer; nothing
 * was stored, so the next run reads the same rows.
 */
const DATABASE_EXIT = {
  URL_MISSING: 2,
  BAD_URL: 2,
  NO_SUCH_DATABASE: 2,
  NO_SUCH_TABLE: 2,
  NO_SUCH_COLUMN: 2,
  BAD_QUERY: 2,
  TIME_ZONE_UNKNOWN: 2,
  NULL_CURSOR: 2,
  UNREACHABLE: 3,
  AUTH_FAILED: 3,
  PERMISSION_DENIED: 3,
  CONNECTION_LOST: 3,
  TIMEOUT: 3,
  FAILED: 1,
} as const satisfies Record<string, 1 | 2 | 3>;

export type DatabaseErrorCode = keyof typeof DATABASE_EXIT;

/** Socket failures before the connection stood (the server is not there) or after (it went away). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
]);
const LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'PROTOCOL_CONNECTION_LOST']);

/** The socket-level code of a driver's error, for both drivers. */
export function socketFailure(error: unknown, connected: boolean): DatabaseErrorCode | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (LOST_CODES.has(code)) return connected ? 'CONNECTION_LOST' : 'UNREACHABLE';
  if (UNREACHABLE_CODES.has(code)) return connected ? 'CONNECTION_LOST' : 'UNREACHABLE';
  return undefined;
}

/** The driver's own words, without anything that is not the message. */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  return error instanceof Error ? error.message || String((error as { code?: unknown }).code) : String(error);
}

/** How a driver's failure is told: by the error, and whether the connection had been made. */
export type Classify = (error: unknown, connected: boolean) => DatabaseErrorCode;

/**
 * A driver's failure as a DatabaseError naming the database and what was being done (a
 * DatabaseError passes as it is). The driver's message names a user at most, never the password.
 */
export function failureOf(label: string, classify: Classify) {
  return (error: unknown, connected: boolean, what: string): DatabaseError =>
    error instanceof DatabaseError
      ? error
      : new DatabaseError(classify(error, connected), `${label}: ${what}: ${reasonOf(error)}`, {
          cause: error,
        });
}
