import { isAscii, isUtf8 } from 'node:buffer';

/** The encodings an export can be decoded as (what `source.encoding: auto` chooses among, too). */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'iso-8859-1';

/** Which encoding a file was read with, and why: reported per file in the run's summary. */
export interface FileEncoding {
  name: TextEncoding;
  /** 'auto': detected (`source.encoding: auto`, the default); 'feed': as the feed declares it. */
  chosenBy: 'auto' | 'feed';
  /** Auto-detection's reason (a byte-order mark, valid UTF-8, or the first byte that is not UTF-8). */
  reason?: string;
}

export const ENCODING_LABEL: Record<TextEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
  'windows-1252': 'Windows-1252',
  'iso-8859-1': 'ISO-8859-1',
};

/** A byte-order mark at the start of a file, and how many bytes it takes. */
export function bomOf(
  head: Buffer,
): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be'; length: number } | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

export const hex = (byte: number | undefined) =>
  byte === undefined ? 'end of file' : `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * A streaming check of UTF-8 over chunks of any size: a sequence cut by a chunk boundary is
 * carried into the next chunk, so the verdict does not depend on where the reads split the file.
 * The fast path is Node's native isUtf8; the exact offset is only searched once something failed.
 */
export class Utf8Check {
  private carry: Buffer | undefined;
  /** Offset in the stream of the first byte of the next chunk's carried part. */
  private offset = 0;
  /** Offset of the first byte that is not valid UTF-8 (its first byte), once one was met. */
  invalidAt: number | undefined;
  /** That byte. */
  invalidByte: number | undefined;

  /** Checks a chunk; returns the complete, valid part (carried bytes included), or undefined once invalid. */
  push(chunk: Buffer): Buffer | undefined {
    if (this.invalidAt !== undefined) return undefined;
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = bytes.length - incompleteTail(bytes);
    const complete = cut === bytes.length ? bytes : bytes.subarray(0, cut);
    if (!isUtf8(complete)) {
      const at = firstInvalidUtf8(complete);
      this.invalidAt = this.offset + at;
      this.invalidByte = complete[at];
      return undefined;
    }
    this.carry = cut === bytes.length ? undefined : Buffer.from(bytes.subarray(cut));
    this.offset += cut;
    return complete;
  }

  /** The end of the stream: a sequence still open there is truncated, so invalid. */
  end(): boolean {
    if (this.invalidAt === undefined && this.carry) {
      this.invalidAt = this.offset;
      this.invalidByte = this.carry[0];
    }
    return this.invalidAt === undefined;
  }
}

/** Bytes at the end of `bytes` that begin a UTF-8 sequence the chunk does not complete. */
function incompleteTail(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(4, n); back++) {
    const b = bytes[n - back] as number;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    if (b < 0xc0) return 0;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return length > back ? back : 0;
  }
  return 0;
}

/** Offset of the first byte of `bytes` that does not start (or continue) a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [length, min] = [2, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [length, min] = [3, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [length, min] = [4, 0x10000];
    else return i;
    if (i + length > bytes.length) return i;
    let code = b & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k] as number;
      if ((c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return i;
    i += length;
  }
  return bytes.length;
}

/**
 * The five bytes Windows-1252 leaves undefined. They are refused rather than read as C1 control
 * characters (what the WHATWG decoder does): in a real export they mean the file is in another
 * code page (in DOS CP850, 0x81 is "ü"), so reading on would write wrong text to the service.
 */
const WINDOWS_1252_UNDEFINED = [0x81, 0x8d, 0x8f, 0x90, 0x9d] as const;

/** Index of the first byte Windows-1252 does not define, or -1. */
export function firstUndefinedWindows1252(bytes: Buffer): number {
  if (isAscii(bytes)) return -1;
  let first = -1;
  for (const byte of WINDOWS_1252_UNDEFINED) {
    const at = bytes.indexOf(byte);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  return first;
}

/** Index of the first byte at or above 0x80, or -1. */
export function firstNonAscii(bytes: Buffer): number {
  if (isAscii(bytes)) return -1;
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] as number) >= 0x80) return i;
  return -1;
}

/**
 * A streaming check and decoder of UTF-16 (either byte order): an odd byte or an unpaired
 * surrogate is invalid (TextDecoder would replace it with U+FFFD). A code unit or surrogate pair
 * cut by a chunk boundary is carried into the next chunk.
 */
export class Utf16Check {
  private carry: Buffer | undefined;
  private offset = 0;
  invalidAt: number | undefined;
  /** The first byte of the invalid code unit. */
  invalidByte: number | undefined;

  constructor(private readonly bigEndian: boolean) {}

  /** Checks a chunk; returns its decoded text, or undefined once invalid. */
  push(chunk: Buffer): string | undefined {
    if (this.invalidAt !== undefined) return undefined;
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    let cut = bytes.length - (bytes.length % 2);
    // A high surrogate at the very end waits for its partner in the next chunk.
    if (cut >= 2 && isHigh(this.unit(bytes, cut - 2))) cut -= 2;
    for (let i = 0; i < cut; i += 2) {
      const unit = this.unit(bytes, i);
      if (isHigh(unit)) {
        if (i + 2 < cut && isLow(this.unit(bytes, i + 2))) {
          i += 2;
          continue;
        }
        return this.invalid(bytes, i);
      }
      if (isLow(unit)) return this.invalid(bytes, i);
    }
    const complete = Buffer.from(bytes.subarray(0, cut));
    if (this.bigEndian) complete.swap16();
    this.carry = cut === bytes.length ? undefined : Buffer.from(bytes.subarray(cut));
    this.offset += cut;
    return complete.toString('utf16le');
  }

  end(): boolean {
    if (this.invalidAt === undefined && this.carry) this.invalid(this.carry, 0);
    return this.invalidAt === undefined;
  }

  private invalid(bytes: Buffer, i: number): undefined {
    this.invalidAt = this.offset + i;
    this.invalidByte = bytes[i];
    return undefined;
  }

  private unit(bytes: Buffer, i: number): number {
    return this.bigEndian ? bytes.readUInt16BE(i) : bytes.readUInt16LE(i);
  }
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
