import { FileStopError } from './file-stop.js';
import { type ExportFile, readChunks } from './locations/export-file.js';

/** Bytes of no text: space, tab, line feed, vertical tab, form feed, carriage return. */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

/** Length of the byte-order mark a file starts with: UTF-8 (3), UTF-16 (2), or none. */
function bomLength(bytes: Buffer): number {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 3;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return 2;
  return 0;
}

/**
 * The size of a file that holds no text at all (0 bytes, or only whitespace after an optional
 * byte-order mark; in UTF-16 their zero bytes too), or undefined once a byte of text is seen:
 * for a file with content that is its first chunk.
 */
export async function blankSize(file: ExportFile): Promise<number | undefined> {
  let size = 0;
  let utf16 = false;
  for await (const chunk of readChunks(file)) {
    let at = 0;
    if (size === 0) {
      at = bomLength(chunk);
      utf16 = at === 2;
    }
    for (; at < chunk.length; at++) {
      const byte = chunk[at] as number;
      if (!WHITESPACE.has(byte) && !(utf16 && byte === 0)) return undefined;
    }
    size += chunk.length;
  }
  return size;
}

/**
 * The stop of an empty file under a format whose least file holds something (`least` says
 * what): it lacks what every export of the format has, so it is no export — some step before
 * the bridge failed — rather than one with nothing in it (exit 2, SOURCE_LAYOUT).
 */
export function emptyFileStop(file: string, size: number, least: string): FileStopError {
  const what = size === 0 ? '0 bytes' : `${size} bytes, only whitespace or a byte-order mark`;
  return new FileStopError('SOURCE_LAYOUT', file, `${file}: the file is empty (${what}): ${least}`);
}
