import { LocationError } from './location-error.js';

/**
 * A local-disk failure, with the codes and exits of the SFTP location's (docs/locations.md): the
 * disk refusing a file or folder (`PERMISSION_DENIED`, 3, as a server refusing it), a file gone or
 * no longer a file since it was listed (`NO_SUCH_FILE`, 1: run again), anything else the disk
 * answered (`READ_FAILED`, 1). The message names the path and what the system said.
 */
export class LocalLocationError extends LocationError {
  override readonly name = 'LocalLocationError';
  constructor(
    override readonly code: 'PERMISSION_DENIED' | 'NO_SUCH_FILE' | 'READ_FAILED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): 1 | 3 {
    return this.code === 'PERMISSION_DENIED' ? 3 : 1;
  }
}

const GONE = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);
const REFUSED = new Set(['EACCES', 'EPERM']);

/** Node's error for `operation` on `path` as a LocalLocationError; one already is passes as it is. */
export function localError(operation: string, path: string, error: unknown): LocationError {
  if (error instanceof LocationError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  // The folder a listing failed on, rather than the whole glob.
  const at = (error as NodeJS.ErrnoException | undefined)?.path ?? path;
  const said = error instanceof Error ? error.message : String(error);
  if (REFUSED.has(code))
    return new LocalLocationError(
      'PERMISSION_DENIED',
      `local disk: ${operation} ${at}: permission denied (${code}); give the user the command runs as read access to it`,
      { cause: error },
    );
  if (GONE.has(code))
    return new LocalLocationError(
      'NO_SUCH_FILE',
      `local disk: ${operation} ${at}: gone or no longer a file since it was listed (${code}); run again`,
      { cause: error },
    );
  return new LocalLocationError('READ_FAILED', `local disk: ${operation} ${at}: ${said}`, { cause: error });
}
