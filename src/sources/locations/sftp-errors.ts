import { LocationError } from './location-error.js';
import { FileChangedError } from './resumable-stream.js';
import { TRANSIENT_SOCKET_CODES } from './retry.js';

/**
 * An SFTP location's failure, with a stable `code` and a message that names the location (never a
 * secret) and, for file operations, the path.
 */
export class SftpError extends LocationError {
  override readonly name = 'SftpError';
  constructor(
    override readonly code:
      | 'SECRET_MISSING'
      | 'HOST_KEY_MISMATCH'
      | 'AUTH_FAILED'
      | 'GLOB_NOT_ABSOLUTE'
      | 'CLOSED'
      | 'CONNECTION_LOST'
      | 'NO_SUCH_FILE'
      | 'PERMISSION_DENIED'
      | 'CHANGED'
      | 'SFTP_FAILED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): 1 | 2 | 3 {
    return SFTP_EXIT[this.code];
  }
}

/** Settings the feed names (2), the server refusing or unreachable (3), the rest (1). */
const SFTP_EXIT: Record<SftpError['code'], 1 | 2 | 3> = {
  SECRET_MISSING: 2,
  GLOB_NOT_ABSOLUTE: 2,
  HOST_KEY_MISMATCH: 3,
  AUTH_FAILED: 3,
  PERMISSION_DENIED: 3,
  CONNECTION_LOST: 3,
  NO_SUCH_FILE: 1,
  CHANGED: 1,
  CLOSED: 1,
  SFTP_FAILED: 1,
};

/** SFTP v3 status codes (draft-ietf-secsh-filexfer-02), as ssh2 puts them on `error.code`. */
export const SFTP_STATUS = {
  NO_SUCH_FILE: 2,
  PERMISSION_DENIED: 3,
  NO_CONNECTION: 6,
  CONNECTION_LOST: 7,
} as const;

/**
 * Failures a new connection can cure: the socket codes of retry.ts, ssh2's keepalive or handshake
 * timeout, a request cut off by the connection's end, and the SFTP statuses for a lost connection.
 * Anything else (no such file, permission, authentication, a host key that does not match) is
 * permanent: retrying would only repeat it.
 */
const TRANSIENT_SSH2_LEVELS = new Set(['client-socket', 'client-timeout']);
const TRANSIENT_SSH2_MESSAGES = new Set(['No response from server', 'Not connected']);

export function isTransientSftpError(error: unknown): boolean {
  if (error instanceof SftpError) return error.code === 'CONNECTION_LOST';
  if (!(error instanceof Error)) return false;
  const { code, level } = error as Error & { code?: unknown; level?: unknown };
  if (typeof code === 'string' && TRANSIENT_SOCKET_CODES.has(code)) return true;
  if (code === SFTP_STATUS.NO_CONNECTION || code === SFTP_STATUS.CONNECTION_LOST) return true;
  if (typeof level === 'string' && TRANSIENT_SSH2_LEVELS.has(level)) return true;
  return TRANSIENT_SSH2_MESSAGES.has(error.message);
}

/** ssh2's error for a file operation, as an SftpError naming the location and the path. */
export function fileError(
  label: string,
  operation: string,
  path: string,
  cause: unknown,
  suffix = '',
): SftpError {
  const status = (cause as { code?: unknown } | undefined)?.code;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const code =
    cause instanceof FileChangedError
      ? 'CHANGED'
      : status === SFTP_STATUS.NO_SUCH_FILE
        ? 'NO_SUCH_FILE'
        : status === SFTP_STATUS.PERMISSION_DENIED
          ? 'PERMISSION_DENIED'
          : isTransientSftpError(cause)
            ? 'CONNECTION_LOST'
            : 'SFTP_FAILED';
  return new SftpError(code, `${label}: ${operation} ${path}: ${reason}${suffix}`, { cause });
}

export function isNoSuchFile(error: unknown): boolean {
  return (
    (error as { code?: unknown } | undefined)?.code === SFTP_STATUS.NO_SUCH_FILE ||
    (error instanceof SftpError && error.code === 'NO_SUCH_FILE')
  );
}
