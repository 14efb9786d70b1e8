import { Readable } from 'node:stream';
import type { SampledExport } from '../../src/init/sample.js';
import { type ExportFile, exportFile } from '../../src/sources/locations/export-file.js';
import type { ByteRange, Location } from '../../src/sources/locations/location.js';

const PATH = 'export';

const readOnly = (): never => {
  throw new Error('the in-memory export is read only');
};

/**
 * An export held in memory, as a location of that one file (only the reads a reader makes: stat
 * and ranged read): for tests that give init or a reader bytes written in the test itself.
 */
export function memoryExport(bytes: Buffer): ExportFile {
  const location: Location = {
    label: 'memory',
    list: async () => [{ path: PATH, size: bytes.length, mtimeMs: 0 }],
    names: async () => [PATH],
    stat: async (path) => (path === PATH ? { path, size: bytes.length, mtimeMs: 0 } : undefined),
    read: (_path: string, range: ByteRange = { start: 0 }) =>
      Readable.from([bytes.subarray(range.start, range.end ?? bytes.length)]),
    move: readOnly,
    remove: readOnly,
    close: async () => {},
  };
  return exportFile(location, PATH);
}

/**
 * What init infers from: `sample` as the first bytes read (`complete`: the whole file), of the
 * export `whole` (default: the sample itself).
 */
export function sampledExport(sample: string | Buffer, complete = true, whole?: Buffer): SampledExport {
  const bytes = typeof sample === 'string' ? Buffer.from(sample, 'utf8') : sample;
  return { bytes, complete, file: memoryExport(whole ?? bytes) };
}
