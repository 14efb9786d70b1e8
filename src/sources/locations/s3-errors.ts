import { LocationError } from './location-error.js';
import { TRANSIENT_SOCKET_CODES } from './retry.js';

/**
 * What a failed S3 call means for the caller: worth retrying (a reset connection, a 5xx, throttling)
 * or final, and a message that names the location, the operation and the key. The SDK's error
 * object is never passed on as a cause: only its name, code and HTTP status go into the message,
 * so nothing a server echoes (or a signature's string to sign) reaches a log.
 */

/** Why an S3 location gave up; `path` is the key (or glob) the operation was about. */
export type S3FailureCode =
  | 'NOT_FOUND'
  | 'CHANGED'
  | 'NO_CREDENTIALS'
  | 'ACCESS_DENIED'
  | 'NO_BUCKET'
  | 'NO_REGION'
  | 'TRANSIENT'
  | 'FAILED';

export class S3LocationError extends LocationError {
  override readonly name = 'S3LocationError';
  constructor(
    override readonly code: S3FailureCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }

  get exitCode(): 1 | 2 | 3 {
    return S3_EXIT[this.code];
  }
}

/** Settings the feed or the environment names (2), S3 refusing or unreachable (3), the rest (1). */
const S3_EXIT: Record<S3FailureCode, 1 | 2 | 3> = {
  NO_CREDENTIALS: 2,
  NO_BUCKET: 2,
  NO_REGION: 2,
  ACCESS_DENIED: 3,
  TRANSIENT: 3,
  NOT_FOUND: 1,
  CHANGED: 1,
  FAILED: 1,
};

/** The few fields of an SDK or Node error this module reads; validated by shape, never trusted. */
interface ErrorFields {
  name: string;
  code: string | undefined;
  status: number | undefined;
  retryable: boolean;
  message: string;
}

function fieldsOf(error: unknown): ErrorFields {
  const value = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const metadata = value.$metadata as Record<string, unknown> | undefined;
  const status = metadata?.httpStatusCode;
  return {
    name: typeof value.name === 'string' ? value.name : 'Error',
    code:
      typeof value.code === 'string' ? value.code : typeof value.Code === 'string' ? value.Code : undefined,
    status: typeof status === 'number' ? status : undefined,
    retryable: typeof value.$retryable === 'object' && value.$retryable !== null,
    message: typeof value.message === 'string' ? value.message : String(error),
  };
}

/** S3 error codes (and SDK error names) for throttling and a server that is briefly unwell. */
const TRANSIENT_S3_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestThrottled',
  'ServiceUnavailable',
  'InternalError',
  'BandwidthLimitExceeded',
]);

/**
 * Retrying may cure it: a connection reset, refused or timed out, a body cut short, a 5xx, a 429
 * or an S3 throttling code. A 4xx (missing key, access denied, changed object) is final.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof S3LocationError) return error.code === 'TRANSIENT';
  const { name, code, status, retryable } = fieldsOf(error);
  if (code !== undefined && TRANSIENT_SOCKET_CODES.has(code)) return true;
  if (TRANSIENT_S3_NAMES.has(name) || (code !== undefined && TRANSIENT_S3_NAMES.has(code))) return true;
  if (status !== undefined) return status >= 500 || status === 429;
  return retryable;
}

/** A missing key: HeadObject says `NotFound` (no body to name it), GetObject `NoSuchKey`. */
export function isNotFound(error: unknown): boolean {
  const { name, status } = fieldsOf(error);
  return name === 'NoSuchKey' || name === 'NotFound' || (status === 404 && name !== 'NoSuchBucket');
}

/** HTTP 416: the range starts at or past the object's end. */
export function isUnsatisfiableRange(error: unknown): boolean {
  const { name, status } = fieldsOf(error);
  return name === 'InvalidRange' || status === 416;
}

/** HTTP 412: `If-Match` no longer holds, the object was replaced. */
export function isPreconditionFailed(error: unknown): boolean {
  const { name, status } = fieldsOf(error);
  return name === 'PreconditionFailed' || status === 412;
}

/**
 * The error to throw for a failed `operation` on `path` of `label`: the SDK's name and status in a
 * sentence that says what to check.
 */
export function s3Failure(label: string, operation: string, path: string, error: unknown): S3LocationError {
  if (error instanceof S3LocationError) return error;
  const { name, code, status, message } = fieldsOf(error);
  const what = `${label}: ${operation} ${path}`;
  const seen = [name, code, status].filter((part) => part !== undefined).join(' ');
  if (name === 'CredentialsProviderError')
    return new S3LocationError(
      'NO_CREDENTIALS',
      path,
      `${what}: no AWS credentials found. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with a shared credentials file (~/.aws/credentials), or run with an IAM role (${message})`,
    );
  if (message === 'Region is missing')
    return new S3LocationError(
      'NO_REGION',
      path,
      `${what}: no region; set source.location.region in the feed, or AWS_REGION`,
    );
  if (isNotFound(error)) return new S3LocationError('NOT_FOUND', path, `${what}: no such key (${seen})`);
  if (name === 'NoSuchBucket')
    return new S3LocationError('NO_BUCKET', path, `${what}: the bucket does not exist (${seen})`);
  if (status === 403 || ['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch'].includes(name))
    return new S3LocationError(
      'ACCESS_DENIED',
      path,
      `${what}: access denied; check the credentials and that they may ${operation} in this bucket (${seen})`,
    );
  if (isTransient(error))
    return new S3LocationError('TRANSIENT', path, `${what}: ${seen}: ${firstLine(message)}`);
  return new S3LocationError('FAILED', path, `${what}: ${seen}: ${firstLine(message)}`);
}

/** Servers put whole XML documents in messages; one line is enough to say what went wrong. */
function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
