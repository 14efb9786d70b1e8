/**
 * A file that cannot be read as its feed configures it (e.g. bytes that are not valid in the
 * feed's encoding). None of its records may be sent: the import stops the run with `code` and
 * exit code 2 ("a file that cannot be read as configured"), naming the file and what to change.
 */
export class FileStopError extends Error {
  override readonly name = 'FileStopError';
  constructor(
    readonly code: string,
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** Bytes that are not valid in the encoding the file is read with. */
export class EncodingError extends FileStopError {
  constructor(
    file: string,
    message: string,
    /** Where the first offending byte is: 1-based line and 0-based byte offset in the file. */
    readonly at: { line: number; offset: number },
  ) {
    super('ENCODING_INVALID', file, message);
  }
}
