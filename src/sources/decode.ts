import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import iconv from 'iconv-lite';
import type { Source } from '../config/feed.js';

export interface OpenedText {
  text: NodeJS.ReadableStream;
  /** sha256 of the file's bytes, known once the stream has been read to the end. */
  sha256: Promise<string>;
}

/**
 * Bytes read from an export at a time. csv-parse parses a whole chunk at once and holds its
 * records until they are consumed; a smaller chunk keeps fewer of them alive, which keeps the
 * garbage collector's work and the process's memory down.
 */
export const READ_CHUNK_BYTES = 64 * 1024;

/**
 * Opens an export as a stream of UTF-8 text and fingerprints its bytes on the way. Windows-1252
 * and ISO-8859-1 are decoded with iconv-lite (Node's TextDecoder maps 'latin1' to windows-1252,
 * which would mis-decode real ISO-8859-1 C1 bytes); a UTF-8 byte-order mark is stripped.
 */
export function openText(
  path: string,
  encoding: Source['encoding'],
  highWaterMark = READ_CHUNK_BYTES,
): OpenedText {
  const bytes = createReadStream(path, { highWaterMark });
  const hash = createHash('sha256');
  const sha256 = new Promise<string>((resolve, reject) => {
    bytes.on('data', (chunk) => hash.update(chunk));
    bytes.on('end', () => resolve(hash.digest('hex')));
    bytes.on('error', reject);
  });
  // The fingerprint is optional for callers; an unobserved rejection must not crash the process.
  sha256.catch(() => {});
  const decoder = decodeStream(encoding);
  bytes.on('error', (error) => decoder.emit('error', error));
  return { text: bytes.pipe(decoder), sha256 };
}

/** A transform from the export's bytes to text (also what the sync benchmark decodes with). */
export function decodeStream(encoding: Source['encoding']): NodeJS.ReadWriteStream {
  return encoding === 'utf-8'
    ? iconv.decodeStream('utf8', { stripBOM: true })
    : iconv.decodeStream(encoding === 'windows-1252' ? 'win1252' : 'iso88591');
}
