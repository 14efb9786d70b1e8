import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ByteInput } from './formats/source-format.js';

/** A binary export opened for a bytes format: no encoding pass, no decoding. */
export interface OpenedBytes {
  input: ByteInput;
  /** sha256 of the file's bytes: a pass of its own, since the reader may read out of order. */
  sha256: Promise<string>;
  /** Bytes the reader has read from disk so far (progress). */
  bytesRead(): number;
}

export function openBytes(path: string): OpenedBytes {
  let read = 0;
  const sha256 = fileSha256(path);
  // The fingerprint is optional for callers; an unobserved rejection must not crash the process.
  sha256.catch(() => {});
  return {
    input: {
      path,
      countRead: (bytes) => {
        read += bytes;
      },
    },
    sha256,
    bytesRead: () => read,
  };
}

export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
