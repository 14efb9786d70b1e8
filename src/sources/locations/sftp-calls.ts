import { posix } from 'node:path';
import type { Attributes, FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2';
import { isNoSuchFile } from './sftp-errors.js';

/** ssh2's callback API as promises: the handful of SFTP requests a location makes. */

function call<T>(start: (done: (error: Error | undefined | null, value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    start((error, value) => (error ? reject(error) : resolve(value)));
  });
}

export function readdir(sftp: SFTPWrapper, path: string): Promise<FileEntryWithStats[]> {
  return call((done) => sftp.readdir(path, done));
}

/** The file's attributes with links followed, or undefined when nothing is there. */
export async function statOrNone(sftp: SFTPWrapper, path: string): Promise<Stats | undefined> {
  try {
    return await call<Stats>((done) => sftp.stat(path, done));
  } catch (error) {
    if (isNoSuchFile(error)) return undefined;
    throw error;
  }
}

export function openForReading(sftp: SFTPWrapper, path: string): Promise<Buffer> {
  return call((done) => sftp.open(path, 'r', done));
}

export function fstat(sftp: SFTPWrapper, handle: Buffer): Promise<Stats> {
  return call((done) => sftp.fstat(handle, done));
}

export function closeHandle(sftp: SFTPWrapper, handle: Buffer): Promise<void> {
  return call((done) => sftp.close(handle, (error) => done(error, undefined)));
}

export function unlink(sftp: SFTPWrapper, path: string): Promise<void> {
  return call((done) => sftp.unlink(path, (error) => done(error, undefined)));
}

/**
 * Renames, replacing a file of that name as a local rename does: with OpenSSH's posix-rename
 * extension when the server has it, else the protocol's rename (which refuses an existing target).
 */
export function rename(sftp: SFTPWrapper, from: string, to: string): Promise<void> {
  return call((done) => {
    const cb = (error: Error | undefined | null) => done(error, undefined);
    try {
      sftp.ext_openssh_rename(from, to, cb);
    } catch {
      sftp.rename(from, to, cb); // ssh2 throws at once when the server lacks the extension
    }
  });
}

/** `mkdir -p`: creates `dir` and its missing parents; a directory already there is fine. */
export async function mkdirp(sftp: SFTPWrapper, dir: string): Promise<void> {
  const existing = await statOrNone(sftp, dir);
  if (existing?.isDirectory()) return;
  if (existing) throw new Error(`${dir} exists and is not a directory`);
  const parent = posix.dirname(dir);
  if (parent !== dir) await mkdirp(sftp, parent);
  try {
    await call((done) => sftp.mkdir(dir, (error) => done(error, undefined)));
  } catch (error) {
    // Another process made it meanwhile (SFTP v3 reports that only as a generic failure).
    if (!(await statOrNone(sftp, dir))?.isDirectory()) throw error;
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** What an entry of a listing is, from its mode bits (readdir's attributes are lstat's). */
export function entryKind(attrs: Attributes): 'file' | 'directory' | 'link' | 'other' {
  const type = attrs.mode & S_IFMT;
  return type === S_IFREG ? 'file' : type === S_IFDIR ? 'directory' : type === S_IFLNK ? 'link' : 'other';
}
