import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { expandGlob, type GlobProblem } from '../glob.js';
import type { ByteRange, LocatedFile, Location } from './location.js';

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
      const paths = await expandGlob(glob, options.onProblem);
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
        throw error;
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
    throw error;
  }
}

/** `end` is exclusive in a ByteRange and inclusive in createReadStream. */
function readRange(path: string, range: ByteRange = { start: 0 }): Readable {
  if (range.end !== undefined && range.end <= range.start) return Readable.from([]);
  return createReadStream(path, {
    start: range.start,
    ...(range.end !== undefined ? { end: range.end - 1 } : {}),
  });
}
