import type { Readable } from 'node:stream';

/** One export file where it lives: its path as the location names it, size and modification time. */
export interface LocatedFile {
  /** Local: an absolute path. SFTP: the absolute path on the server. S3: the object key. */
  path: string;
  size: number;
  mtimeMs: number;
}

/** Bytes [start, end) of a file; `end` undefined reads to the end. */
export interface ByteRange {
  start: number;
  end?: number;
}

/**
 * Where a feed's exports live: the local disk, an SFTP server or an S3 bucket. Readers never copy a
 * remote file whole: every pass (encoding check, decode with fingerprint, an xlsx's central
 * directory) is a `read` of the range it needs, streamed. Implementations retry transient network
 * errors inside `read`, resuming at the byte reached, so a stream ends only with all its bytes or
 * with an error that retrying did not cure.
 */
export interface Location {
  /** For messages and logs: `sftp://user@host:port`, `s3://bucket`, `local`. Never holds a secret. */
  readonly label: string;
  /**
   * The files matching `glob` (`*` and `?` within path segments, no `**`), sorted by path, so runs
   * are reproducible. Local globs are absolute; SFTP globs are absolute on the server; S3 globs are
   * key patterns (the part before the first wildcard is the listing prefix).
   */
  list(glob: string): Promise<LocatedFile[]>;
  /**
   * The names directly in `folder` (files and sub-folders, a sub-folder with a trailing `/`),
   * sorted, or undefined when the folder does not exist: what a glob that matched nothing is
   * compared with (no-file.ts). S3 has no folders: `folder` is the key prefix `<folder>/`, and a
   * prefix with no object under it is an empty folder (`[]`), never a missing one.
   */
  names(folder: string): Promise<string[] | undefined>;
  /** The file's size and mtime now, or undefined when it is gone. */
  stat(path: string): Promise<LocatedFile | undefined>;
  /** The bytes of `range` (default: the whole file) as a stream of Buffers. */
  read(path: string, range?: ByteRange): Readable;
  /** Moves the file into `folder` (created when missing), keeping its name; returns the new path. */
  move(path: string, folder: string): Promise<string>;
  remove(path: string): Promise<void>;
  /** Ends connections; the location is not used afterwards. */
  close(): Promise<void>;
}
