import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';
import { hasWildcard, segmentMatcher } from '../glob.js';
import type { LocatedFile, Location } from './location.js';
import { type SftpLocationConfig, sftpLabel } from './location-config.js';
import { type OpenedRange, resumableRead } from './resumable-stream.js';
import { DEFAULT_RETRY, type RetryEvent, type RetryPolicy, withRetry } from './retry.js';
import {
  closeHandle,
  entryKind,
  fstat,
  mkdirp,
  openForReading,
  readdir,
  rename,
  statOrNone,
  unlink,
} from './sftp-calls.js';
import {
  connectSftp,
  DEFAULT_TUNING,
  type SftpLink,
  type SftpTuning,
  sftpCredentials,
} from './sftp-connection.js';
import { fileError, isNoSuchFile, isTransientSftpError, SftpError } from './sftp-errors.js';

export interface SftpOptions {
  retry?: Partial<RetryPolicy>;
  tuning?: Partial<SftpTuning>;
  /** Hears each retry of a transient network error (for a warning in the log). */
  onRetry?(event: RetryEvent): void;
}

/**
 * A feed's SFTP server as a Location. The credentials are read from the environment now (a missing
 * variable fails here, naming it); the connection is made on first use, reused by every call and
 * made again after it broke. Every call retries transient network errors; a read resumes at the
 * byte it reached.
 */
export function openSftpLocation(
  config: SftpLocationConfig,
  env: NodeJS.ProcessEnv,
  options: SftpOptions = {},
): Location {
  const label = sftpLabel(config);
  const credentials = sftpCredentials(config, env);
  const tuning = { ...DEFAULT_TUNING, ...options.tuning };
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  const session = new SftpSession(label, () => connectSftp(config, credentials, tuning));

  /** One request with its retries; the error that ends it names the location and the path. */
  const run = <T>(
    operation: string,
    path: string,
    request: (sftp: SFTPWrapper, attempt: number) => Promise<T>,
  ): Promise<T> =>
    withRetry(
      `${operation} ${path}`,
      policy,
      isTransientSftpError,
      (attempt) => session.use((sftp) => request(sftp, attempt)),
      options.onRetry,
    ).catch((error: unknown) => {
      throw finalError(operation, path, error);
    });

  /** The error a call ends with: ours as they are, the rest naming location and path. */
  const finalError = (operation: string, path: string, error: unknown): SftpError => {
    if (error instanceof SftpError && error.code !== 'CONNECTION_LOST') return error;
    const retried = isTransientSftpError(error) ? ` (gave up after ${policy.retries} retries)` : '';
    return fileError(label, operation, path, error, retried);
  };

  const openRange = async (path: string, start: number, end: number | undefined): Promise<OpenedRange> =>
    session.use(async (sftp, link) => {
      const handle = await openForReading(sftp, path);
      let version: string;
      try {
        const attrs = await fstat(sftp, handle);
        version = `size ${attrs.size}, mtime ${attrs.mtime}`;
      } catch (error) {
        await closeHandle(sftp, handle).catch(() => {});
        throw error;
      }
      const remote = sftp.createReadStream(path, {
        handle,
        start,
        ...(end !== undefined ? { end: end - 1 } : {}),
        // ssh2 keeps one read request in flight, of up to this size: OpenSSH's largest read (255
        // KiB, its limits@openssh.com answer) per round trip instead of ssh2's default 64 KiB.
        highWaterMark: 255 * 1024,
      });
      // ssh2's stream reports an error only once it has closed its handle, which a broken
      // connection never answers; the reader hears of the break through this stream instead.
      const stream = new PassThrough({ highWaterMark: 0 });
      remote.on('error', (error: Error) => stream.destroy(error));
      remote.pipe(stream);
      // A request pending when the connection breaks fails, but a stream paused by backpressure
      // has none: it learns of the break here.
      const unsubscribe = link.onClose(() =>
        stream.destroy(new SftpError('CONNECTION_LOST', 'the connection closed')),
      );
      stream.once('close', () => {
        unsubscribe();
        remote.destroy();
      });
      return { stream, version };
    });

  return {
    label,
    list: (glob) => {
      if (!glob.startsWith('/')) {
        return Promise.reject(
          new SftpError(
            'GLOB_NOT_ABSOLUTE',
            `${label}: source.path ${glob} must be an absolute path on the server (starting with /)`,
          ),
        );
      }
      return run('list', glob, (sftp) => listGlob(sftp, glob));
    },
    names: (folder) =>
      run('list', folder, async (sftp) => {
        const attrs = await statOrNone(sftp, folder);
        if (!attrs || entryKind(attrs) !== 'directory') return undefined;
        return (await readdirOrNone(sftp, folder))
          .filter((e) => e.filename !== '.' && e.filename !== '..')
          .map((e) => (entryKind(e.attrs) === 'directory' ? `${e.filename}/` : e.filename))
          .sort();
      }),
    stat: (path) =>
      run('stat', path, async (sftp) => {
        const attrs = await statOrNone(sftp, path);
        return attrs?.isFile() ? located(path, attrs) : undefined;
      }),
    read: (path, range = { start: 0 }) =>
      resumableRead(range, {
        operation: `read ${path}`,
        open: (start, end) => openRange(path, start, end),
        isTransient: isTransientSftpError,
        policy,
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
        fail: (cause, offset) => finalError(`read (at byte ${offset})`, path, cause),
      }),
    move: (path, folder) => {
      const target = posix.resolve(posix.dirname(path), folder);
      const moved = posix.join(target, posix.basename(path));
      return run('move', path, async (sftp, attempt) => {
        // An earlier attempt's rename may have happened with only its answer lost.
        if (attempt > 1 && !(await statOrNone(sftp, path)) && (await statOrNone(sftp, moved))) {
          return moved;
        }
        // A file of the same name moved there before is not overwritten (as on a disk).
        if (await statOrNone(sftp, moved))
          throw new Error(`${label}${moved} exists already; ${path} is left where it is`);
        await mkdirp(sftp, target);
        await rename(sftp, path, moved);
        return moved;
      });
    },
    remove: (path) =>
      run('remove', path, async (sftp, attempt) => {
        try {
          await unlink(sftp, path);
        } catch (error) {
          // Gone on a retry: the earlier attempt removed it and its answer was lost.
          if (!(attempt > 1 && isNoSuchFile(error))) throw error;
        }
      }),
    close: () => session.close(),
  };
}

function located(path: string, attrs: { size: number; mtime: number }): LocatedFile {
  // SFTP v3 carries whole seconds.
  return { path, size: attrs.size, mtimeMs: attrs.mtime * 1000 };
}

/** Walks the server's directories segment by segment, as the local glob does; sorted by path. */
async function listGlob(sftp: SFTPWrapper, glob: string): Promise<LocatedFile[]> {
  const segments = glob.split('/').filter((s) => s !== '');
  const firstWild = segments.findIndex(hasWildcard);
  if (firstWild < 0) {
    const attrs = await statOrNone(sftp, glob);
    return attrs?.isFile() ? [located(glob, attrs)] : [];
  }
  let bases = [`/${segments.slice(0, firstWild).join('/')}`];
  let files: LocatedFile[] = [];
  for (let i = firstWild; i < segments.length; i++) {
    const matches = segmentMatcher(segments[i] as string);
    const last = i === segments.length - 1;
    const next: string[] = [];
    for (const base of bases) {
      for (const entry of await readdirOrNone(sftp, base)) {
        if (entry.filename === '.' || entry.filename === '..' || !matches(entry.filename)) continue;
        const path = posix.join(base, entry.filename);
        let attrs = entry.attrs;
        if (entryKind(attrs) === 'link') {
          const target = await statOrNone(sftp, path);
          if (!target) continue; // a dangling link
          attrs = target;
        }
        const kind = entryKind(attrs);
        if (last && kind === 'file') files.push(located(path, attrs));
        if (!last && kind === 'directory') next.push(path);
      }
    }
    bases = next;
  }
  files = files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return files;
}

async function readdirOrNone(sftp: SFTPWrapper, dir: string) {
  try {
    return await readdir(sftp, dir);
  } catch (error) {
    if (isNoSuchFile(error)) return [];
    throw error;
  }
}

/**
 * The one connection of a location: made on first use, shared by concurrent calls, dropped when it
 * breaks (or a call on it fails transiently) so the next call connects afresh.
 */
class SftpSession {
  #link: Promise<SftpLink> | undefined;
  #closed = false;

  constructor(
    private readonly label: string,
    private readonly connect: () => Promise<SftpLink>,
  ) {}

  async use<T>(request: (sftp: SFTPWrapper, link: SftpLink) => Promise<T>): Promise<T> {
    if (this.#closed) throw new SftpError('CLOSED', `${this.label}: the location was closed`);
    const pending = this.#current();
    const link = await pending;
    try {
      return await request(link.sftp, link);
    } catch (error) {
      if (isTransientSftpError(error) && this.#link === pending) {
        this.#link = undefined;
        void link.end(0);
      }
      throw error;
    }
  }

  #current(): Promise<SftpLink> {
    const current = this.#link;
    if (current) return current;
    const pending = this.connect();
    this.#link = pending;
    pending.then(
      (link) =>
        link.onClose(() => {
          if (this.#link === pending) this.#link = undefined;
        }),
      () => {
        if (this.#link === pending) this.#link = undefined;
      },
    );
    return pending;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#link;
    this.#link = undefined;
    const link = await pending?.catch(() => undefined);
    await link?.end();
  }
}
