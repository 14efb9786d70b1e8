import { Readable } from 'node:stream';
import type { ByteInput } from '../sources/formats/source-format.js';
import type { ByteRange, Location } from '../sources/locations/location.js';

const SAMPLE_PATH = 'sample';

const readOnly = (): never => {
  throw new Error('the sample is read only');
};

/**
 * A whole file held as the sample, as a bytes reader takes it (a workbook needs ranged reads): a
 * location of that one file. Only the reads a reader makes (stat, read) are there.
 */
export function sampleInput(bytes: Buffer): ByteInput {
  const location: Location = {
    label: 'init sample',
    list: async () => [{ path: SAMPLE_PATH, size: bytes.length, mtimeMs: 0 }],
    names: async () => [SAMPLE_PATH],
    stat: async (path) => (path === SAMPLE_PATH ? { path, size: bytes.length, mtimeMs: 0 } : undefined),
    read: (_path: string, range: ByteRange = { start: 0 }) =>
      Readable.from([bytes.subarray(range.start, range.end ?? bytes.length)]),
    move: readOnly,
    remove: readOnly,
    close: async () => {},
  };
  return { path: SAMPLE_PATH, location, countRead: () => {} };
}
