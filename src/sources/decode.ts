import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { type ByteWatch, inspectEncoding, lineAt } from './encoding-inspect.js';
import { EncodingError } from './file-stop.js';
import type { SourceEncoding } from './formats/shared-keys.js';
import { asExportFile, type ExportFile, readChunks } from './locations/export-file.js';
import {
  ENCODING_LABEL,
  type FileEncoding,
  firstUndefinedWindows1252,
  hex,
  type TextEncoding,
  Utf8Check,
  Utf16Check,
} from './text-encoding.js';

export interface OpenedText {
  text: NodeJS.ReadableStream;
  /** sha256 of the file's bytes, known once the stream has been read to the end. */
  sha256: Promise<string>;
}

export interface CheckedText extends OpenedText {
  /** Destroyed by a caller that stops the file before reading it (its read holds a file or connection). */
  text: Readable;
  /**
   * Bytes of the file read from disk so far (progress). They run ahead of the rows handed out by
   * what waits in the stream buffers between the disk and the reader: a few READ_CHUNK_BYTES.
   */
  bytesRead(): number;
  /** The encoding the file is decoded as, and whether auto-detection chose it. */
  encoding: FileEncoding;
  /**
   * Set when the decode met a byte that is invalid in the encoding although the first pass found
   * none: the file changed while it was read. `text` then ends with an error, never with U+FFFD.
   */
  failure(): Promise<EncodingError> | undefined;
}

/**
 * Bytes read from an export at a time. csv-parse parses a whole chunk at once and holds its
 * records until they are consumed; a smaller chunk keeps fewer of them alive, which keeps the
 * garbage collector's work and the process's memory down.
 */
export const READ_CHUNK_BYTES = 64 * 1024;

/**
 * Opens an export as text in two passes. The first (inspectEncoding) reads the bytes once to
 * choose the encoding (`auto`) or to prove the declared one fits, and throws an EncodingError
 * naming line, byte offset and the likely encoding otherwise — before a single record exists, so
 * a file that cannot be decoded has none of its records sent. The second decodes strictly
 * (never U+FFFD) and fingerprints the bytes on the way.
 */
export async function openCheckedText(
  given: string | ExportFile,
  encoding: SourceEncoding,
  highWaterMark = READ_CHUNK_BYTES,
  watch?: ByteWatch,
): Promise<CheckedText> {
  const file = asExportFile(given);
  const chosen = await inspectEncoding(file, encoding, highWaterMark, watch);
  const bytes = Readable.from(readChunks(file, { start: 0 }, highWaterMark), { objectMode: false });
  const hash = createHash('sha256');
  let read = 0;
  const sha256 = new Promise<string>((resolve, reject) => {
    bytes.on('data', (chunk) => {
      hash.update(chunk);
      read += Buffer.byteLength(chunk);
    });
    bytes.on('end', () => resolve(hash.digest('hex')));
    bytes.on('error', reject);
  });
  // The fingerprint is optional for callers; an unobserved rejection must not crash the process.
  sha256.catch(() => {});
  let failure: Promise<EncodingError> | undefined;
  const decoder = decodeStream(chosen.name);
  decoder.on('error', (error) => {
    if (!(error instanceof DecodeError) || failure) return;
    const unit = chosen.name === 'utf-16le' || chosen.name === 'utf-16be' ? 2 : 1;
    failure = lineAt(file, error.offset, unit, chosen.name === 'utf-16be').then(
      (line) =>
        new EncodingError(
          file.name,
          `${file.name}: not valid ${ENCODING_LABEL[chosen.name]} at line ${line}, byte offset ${error.offset} (${hex(error.byte)}), although the first read of the file found it valid: the file changed while it was read; run again once it is complete`,
          { line, offset: error.offset },
        ),
    );
  });
  bytes.on('error', (error) => decoder.destroy(error));
  return {
    text: bytes.pipe(decoder),
    sha256,
    encoding: chosen,
    failure: () => failure,
    bytesRead: () => read,
  };
}

/**
 * openCheckedText as one stream, for readers used on their own (tests): an encoding problem
 * ends `text` with the EncodingError.
 */
export function openText(
  file: string | ExportFile,
  encoding: SourceEncoding,
  highWaterMark = READ_CHUNK_BYTES,
): OpenedText {
  const text = new PassThrough({ encoding: 'utf8', decodeStrings: false });
  const opened = openCheckedText(file, encoding, highWaterMark);
  const sha256 = opened.then((o) => o.sha256);
  sha256.catch(() => {});
  opened.then(
    (o) => {
      o.text.on('error', (error) => text.destroy(error));
      o.text.pipe(text);
    },
    (error: unknown) => text.destroy(error as Error),
  );
  return { text, sha256 };
}

/** A byte the strict decoder refused, at this offset of the stream. */
export class DecodeError extends Error {
  constructor(
    readonly encoding: TextEncoding,
    readonly offset: number,
    readonly byte: number | undefined,
  ) {
    super(`not valid ${ENCODING_LABEL[encoding]} at byte offset ${offset} (${hex(byte)})`);
  }
}

/**
 * A strict transform from an export's bytes to text:
 * a byte that is invalid in the encoding ends the stream with a DecodeError instead of becoming
 * U+FFFD. A byte-order mark is stripped. ISO-8859-1 defines every byte, so it never fails.
 */
export function decodeStream(encoding: TextEncoding): Transform {
  switch (encoding) {
    case 'utf-8': {
      const check = new Utf8Check();
      return textTransform(
        encoding,
        (chunk) => check.push(chunk)?.toString('utf8') ?? invalid(check),
        () => (check.end() ? undefined : invalid(check)),
      );
    }
    case 'utf-16le':
    case 'utf-16be': {
      const check = new Utf16Check(encoding === 'utf-16be');
      return textTransform(
        encoding,
        (chunk) => check.push(chunk) ?? invalid(check),
        () => (check.end() ? undefined : invalid(check)),
      );
    }
    case 'windows-1252': {
      let offset = 0;
      return textTransform(encoding, (chunk) => {
        const at = firstUndefinedWindows1252(chunk);
        if (at !== -1) return { offset: offset + at, byte: chunk[at] };
        offset += chunk.length;
        return decodeWindows1252(chunk);
      });
    }
    case 'iso-8859-1':
      // Node's latin1 maps each byte to the code point of its value: exactly ISO-8859-1
      // (TextDecoder's 'latin1' would be Windows-1252).
      return textTransform(encoding, (chunk) => chunk.toString('latin1'));
  }
}

interface Invalid {
  offset: number;
  byte: number | undefined;
}

const invalid = (check: { invalidAt: number | undefined; invalidByte: number | undefined }): Invalid => ({
  offset: check.invalidAt ?? 0,
  byte: check.invalidByte,
});

/** A transform whose step returns a chunk's text, or where the first invalid byte is. */
function textTransform(
  encoding: TextEncoding,
  step: (chunk: Buffer) => string | Invalid,
  end: () => Invalid | undefined = () => undefined,
): Transform {
  let first = true;
  return new Transform({
    encoding: 'utf8',
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      const out = step(chunk);
      if (typeof out !== 'string') return done(new DecodeError(encoding, out.offset, out.byte));
      let text = out;
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (text.length > 0) this.push(text, 'utf8');
      done();
    },
    flush(done: TransformCallback) {
      const failed = end();
      done(failed ? new DecodeError(encoding, failed.offset, failed.byte) : undefined);
    },
  });
}

/** What Windows-1252 makes of 0x80-0x9F (the five undefined bytes never get here). */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const C1 = /[\u0080-\u009f]/g;

/**
 * Windows-1252 agrees with ISO-8859-1 except on 0x80-0x9F: Node's native latin1 decode, then
 * those few characters replaced. About three times faster than a table decode in JavaScript.
 */
export function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(C1, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] as string);
}
