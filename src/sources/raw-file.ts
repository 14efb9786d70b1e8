import type { ByteInput } from './formats/source-format.js';
import { asExportFile, type ExportFile, sha256Of } from './locations/export-file.js';

/** A binary export opened for a bytes format: no encoding pass, no decoding. */
export interface OpenedBytes {
  input: ByteInput;
  /** sha256 of the file's bytes: a pass of its own, since the reader may read out of order. */
  sha256: Promise<string>;
  /** Bytes the reader has read so far (progress). */
  bytesRead(): number;
}

export function openBytes(given: string | ExportFile): OpenedBytes {
  const file = asExportFile(given);
  let read = 0;
  const sha256 = sha256Of(file);
  // The fingerprint is optional for callers; an unobserved rejection must not crash the process.
  sha256.catch(() => {});
  return {
    input: {
      path: file.path,
      location: file.location,
      countRead: (bytes) => {
        read += bytes;
      },
    },
    sha256,
    bytesRead: () => read,
  };
}

/** sha256 of a file's bytes (a local path, or a file of any location). */
export function fileSha256(file: string | ExportFile): Promise<string> {
  return sha256Of(asExportFile(file));
}
