import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { expandGlob, type GlobProblem } from '../glob.js';
import { localError } from './local-errors.js';
import type { ByteRange, LocatedFile, Location } from './location.js';
import { pulledStream } from './pulled-stream.js';

export interface LocalOptions {
  /** Hears a path the glob matched but cannot use (a link loop, a dangling link, a second name). */
  onProblem?(problem: GlobProblem): void;
}

/**
 * The local disk as a Location: the listing is expandGlob's (symbolic links followed, each real
 * file once, sorted), reads are file streams of the byte range asked for.
 */
export function openLocalLocation(options: LocalOptions = {}): Location {
  return {
    label: 'local',
    list: async (glob) => {
      const paths = await expandGlob(glob, options.onProblem).catch((error: unknown) => {
        throw localError('list', glob, error);
      });
      const files = await Promise.all(paths.map(statFile));
      // A file gone between the listing and its stat is no longer there to import.
      return files.filter((f): f is LocatedFile => f !== undefined);
    },
    names: async (folder) => {
      try {
        const entries = await readdir(folder, { withFileTypes: true });
        return entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
        throw localError('list', folder, error);
      }
    },
    stat: statFile,
    read: (path, range) => readRange(path, range),
    move: async (path, folder) => {
      const target = resolve(dirname(path), folder);
      await mkdir(target, { recursive: true });
      const moved = join(target, basename(path));
      // A file of the same name moved there before must not be overwritten (rename would).
      if (await statFile(moved)) throw new Error(`${moved} exists already; ${path} is left where it is`);
      await rename(path, moved);
      return moved;
    },
    remove: (path) => unlink(path),
    close: async () => {},
  };
}

async function statFile(path: string): Promise<LocatedFile | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? { path: resolve(path), size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw localError('stat', path, error);
  }
}

/**
 * `end` is exclusive in a ByteRange and inclusive in createReadStream. The disk's errors (a file
 * removed since the listing, one it refuses) come as LocalLocationErrors: they stop the feed's
 * run with its code, never the command.
 */
function readRange(path: string, range: ByteRange = { start: 0 }): Readable {
  if (range.end !== undefined && range.end <= range.start) return Readable.from([]);
  return pulledStream(async function* () {
    const file = createReadStream(path, {
      start: range.start,
      ...(range.end !== undefined ? { end: range.end - 1 } : {}),
    });
    try {
      for await (const chunk of file) yield chunk as Buffer;
    } catch (error) {
      throw localError('read', path, error);
    } finally {
      file.destroy();
    }
  });
}
