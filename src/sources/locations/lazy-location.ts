import { PassThrough } from 'node:stream';
import type { Location } from './location.js';

/**
 * A Location whose implementation is loaded on first use. The SFTP and S3 clients cost every
 * process that loads them about 110 ms and 25 MB at start-up (measured: importing
 * open-location.js with them 0.17 s / 70 MB RSS, the local location alone 0.06 s / 43 MB), and
 * most feeds read the local disk: only a feed that names a remote location pays for its client.
 */
export function lazyLocation(label: string, load: () => Promise<Location>): Location {
  let loaded: Promise<Location> | undefined;
  const location = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    label,
    list: async (glob) => (await location()).list(glob),
    names: async (folder) => (await location()).names(folder),
    stat: async (path) => (await location()).stat(path),
    read(path, range) {
      const out = new PassThrough();
      location().then(
        (inner) => {
          if (out.destroyed) return;
          const bytes = inner.read(path, range);
          bytes.on('error', (error) => out.destroy(error));
          out.on('close', () => bytes.destroy());
          bytes.pipe(out);
        },
        (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
      );
      return out;
    },
    move: async (path, folder) => (await location()).move(path, folder),
    remove: async (path) => (await location()).remove(path),
    // One that never loaded (its load failed, and each call said so) has nothing to close.
    close: async () => {
      const inner = await loaded?.catch(() => undefined);
      await inner?.close();
    },
  };
}
