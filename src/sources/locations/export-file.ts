import { createHash } from 'node:crypto';
import { openLocalLocation } from './local.js';
import type { ByteRange, Location } from './location.js';

/** One export to read: where it lives, its path there, and the name reports and messages give it. */
export interface ExportFile {
  readonly location: Location;
  /** The path as the location names it (local: absolute; SFTP: the server's path; S3: the key). */
  readonly path: string;
  /** Local: the path. Remote: the location's label and the path, e.g. sftp://acme@host:22/in/a.csv. */
  readonly name: string;
}

/** The local disk for a plain path (tests, and readers given a path). */
const LOCAL = openLocalLocation();

export function exportFile(location: Location, path: string): ExportFile {
  return { location, path, name: nameOf(location, path) };
}

/** A plain string is a local file: what every reader took before locations existed. */
export function asExportFile(file: string | ExportFile): ExportFile {
  return typeof file === 'string' ? exportFile(LOCAL, file) : file;
}

/** How a file of a location is named in reports: a local path as is, a remote one after its label. */
export function nameOf(location: Location, path: string): string {
  if (location.label === 'local') return path;
  return `${location.label}${path.startsWith('/') ? '' : '/'}${path}`;
}

/**
 * The bytes of `range` (default: all) as Buffers of at most `chunkBytes`: the readers' chunk size
 * (and the tests' small ones, which put chunk boundaries inside characters) whatever the
 * location's own read size.
 */
export async function* readChunks(
  file: ExportFile,
  range: ByteRange = { start: 0 },
  chunkBytes = Number.POSITIVE_INFINITY,
): AsyncGenerator<Buffer> {
  for await (const chunk of file.location.read(file.path, range) as AsyncIterable<Buffer>) {
    if (chunk.length <= chunkBytes) yield chunk;
    else for (let at = 0; at < chunk.length; at += chunkBytes) yield chunk.subarray(at, at + chunkBytes);
  }
}

/** sha256 of the whole file, in a pass of its own. */
export async function sha256Of(file: ExportFile): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of readChunks(file)) hash.update(chunk);
  return hash.digest('hex');
}
