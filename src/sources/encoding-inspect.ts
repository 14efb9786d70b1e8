import { EncodingError } from './file-stop.js';
import type { SourceEncoding } from './formats/shared-keys.js';
import { asExportFile, type ExportFile, readChunks } from './locations/export-file.js';
import {
  bomOf,
  ENCODING_LABEL,
  type FileEncoding,
  firstNonAscii,
  firstUndefinedWindows1252,
  hex,
  Utf8Check,
  Utf16Check,
} from './text-encoding.js';

/** What one pass over a file's bytes found out about its encoding. */
interface Scan {
  bom: ReturnType<typeof bomOf>;
  /** First offset that is not valid UTF-8 (after a UTF-16 byte-order mark: not checked). */
  notUtf8?: number;
  /** First byte Windows-1252 does not define. */
  notWindows1252?: number;
  /** First byte at or above 0x80. */
  nonAscii?: number;
  /** First offset that is not valid UTF-16 (only checked when the file is read as UTF-16). */
  notUtf16?: number;
  /** The byte at each offset above, for the message. */
  /** The byte at notUtf8 and at notWindows1252, kept while scanning (messages quote it). */
  bytes: Map<number, number | undefined>;
}

/**
 * Another look at the bytes of this first pass, so that a check needing the whole file before the
 * first record (the date format's, date-candidates.ts) costs no read of its own: `end` is called
 * only when the pass saw every byte (it may end early once the encoding's verdict is known).
 */
export interface ByteWatch {
  push(chunk: Buffer): void;
  end(): void;
}

/**
 * The first pass over an export, before any record is read: decides the encoding (`auto`) or
 * proves the declared one fits, so a file that cannot be decoded is stopped before any of its
 * records is sent. It streams (flat memory) and costs a read of the file with native checks
 * (isUtf8, indexOf); it ends early once the verdict cannot change.
 */
export async function inspectEncoding(
  given: string | ExportFile,
  declared: SourceEncoding,
  highWaterMark: number,
  watch?: ByteWatch,
): Promise<FileEncoding> {
  const file = asExportFile(given);
  const scan = await scanFile(file, declared, highWaterMark, watch);
  const problem = async (offset: number, text: string, unit: 1 | 2 = 1) => {
    const bigEndian = scan.bom?.encoding === 'utf-16be' || declared === 'utf-16be';
    const line = await lineAt(file, offset, unit, bigEndian);
    const at = `at line ${line}, byte offset ${offset} (${hex(await byteAt(file, offset))})`;
    return new EncodingError(file.name, `${file.name}: ${text.replace('{at}', at)}`, { line, offset });
  };

  if (declared === 'auto') {
    if (scan.bom?.encoding === 'utf-16le' || scan.bom?.encoding === 'utf-16be') {
      const name = scan.bom.encoding;
      if (scan.notUtf16 !== undefined)
        throw await problem(
          scan.notUtf16,
          `starts with a ${ENCODING_LABEL[name]} byte-order mark but is not valid ${ENCODING_LABEL[name]} {at}: an unpaired surrogate or an odd number of bytes; the file is damaged, export it again`,
          2,
        );
      return { name, chosenBy: 'auto', reason: `${ENCODING_LABEL[name]} byte-order mark` };
    }
    // The byte-order mark is the producer's word: a file that has one and is not valid UTF-8
    // mixes encodings (e.g. two exports appended), and no single decode reads it right.
    if (scan.bom?.encoding === 'utf-8' && scan.notUtf8 !== undefined)
      throw await problem(
        scan.notUtf8,
        'starts with a UTF-8 byte-order mark but is not valid UTF-8 {at}: the file mixes encodings; export it again or save it as UTF-8',
      );
    if (scan.notUtf8 === undefined)
      return {
        name: 'utf-8',
        chosenBy: 'auto',
        reason: scan.bom
          ? 'UTF-8 byte-order mark'
          : scan.nonAscii === undefined
            ? 'ASCII only'
            : 'valid UTF-8',
      };
    if (scan.notWindows1252 === undefined)
      return {
        name: 'windows-1252',
        chosenBy: 'auto',
        reason: `not valid UTF-8 (byte ${hex(scan.bytes.get(scan.notUtf8))} at byte offset ${scan.notUtf8})`,
      };
    throw await problem(
      scan.notWindows1252,
      `neither UTF-8 (byte ${hex(scan.bytes.get(scan.notUtf8))} at byte offset ${scan.notUtf8}) nor Windows-1252: a byte Windows-1252 does not define {at}. ${OTHER_CODE_PAGE}`,
    );
  }

  const feed: FileEncoding = { name: declared, chosenBy: 'feed' };
  const label = ENCODING_LABEL[declared];
  if (declared === 'utf-16le' || declared === 'utf-16be') {
    // The other byte order (or UTF-8) would decode without a single invalid unit, as wrong text.
    if (scan.bom && scan.bom.encoding !== declared)
      throw await problem(
        0,
        `not ${label} {at}: the file starts with a ${ENCODING_LABEL[scan.bom.encoding]} byte-order mark; set \`encoding: ${scan.bom.encoding}\` or \`auto\``,
      );
    if (scan.notUtf16 !== undefined)
      throw await problem(
        scan.notUtf16,
        `not valid ${label} {at}: an unpaired surrogate or an odd number of bytes; ${scan.bom ? 'the file is damaged, export it again' : 'set `encoding: auto` if the file is not UTF-16'}`,
        2,
      );
    return feed;
  }
  // A UTF-16 file read as a single-byte encoding or UTF-8 would be text interleaved with NULs.
  if (scan.bom && scan.bom.encoding !== 'utf-8')
    throw await problem(
      0,
      `not ${label} {at}: the file starts with a ${ENCODING_LABEL[scan.bom.encoding]} byte-order mark; set \`encoding: ${scan.bom.encoding}\` or \`auto\``,
    );
  if (declared === 'utf-8') {
    if (scan.notUtf8 !== undefined)
      throw await problem(
        scan.notUtf8,
        scan.notWindows1252 === undefined
          ? 'not valid UTF-8 {at}: the file looks like Windows-1252; set `encoding: windows-1252` or `auto`'
          : `not valid UTF-8 {at}, nor Windows-1252 (byte ${hex(scan.bytes.get(scan.notWindows1252))} at byte offset ${scan.notWindows1252}). ${OTHER_CODE_PAGE}`,
      );
    return feed;
  }
  // Windows-1252 or ISO-8859-1. A file that is valid UTF-8 with non-ASCII text in it is UTF-8 (a
  // single-byte text is practically never valid UTF-8 by chance): read as declared, every "ü"
  // would reach the service as "Ã¼".
  if (scan.notUtf8 === undefined && scan.nonAscii !== undefined)
    throw await problem(
      scan.nonAscii,
      `declared ${label} but the file is UTF-8: its first non-ASCII character {at} would be read as two or three wrong characters (e.g. "Ã¼" for "ü"); set \`encoding: utf-8\` or \`auto\``,
    );
  if (declared === 'windows-1252' && scan.notWindows1252 !== undefined)
    throw await problem(
      scan.notWindows1252,
      `not valid Windows-1252 {at}: a byte Windows-1252 does not define. ${OTHER_CODE_PAGE}`,
    );
  return feed;
}

const OTHER_CODE_PAGE =
  'The file may be in another code page (e.g. DOS CP850, where 0x81 is "ü"), which erp-bridge does not read: export or save it as UTF-8';

async function scanFile(
  file: ExportFile,
  declared: SourceEncoding,
  highWaterMark: number,
  watch: ByteWatch | undefined,
): Promise<Scan> {
  const scan: Scan = { bom: undefined, bytes: new Map() };
  let complete = true;
  let utf8: Utf8Check | undefined;
  let utf16: Utf16Check | undefined;
  let offset = 0;
  let first = true;
  for await (const chunk of readChunks(file, { start: 0 }, highWaterMark)) {
    watch?.push(chunk);
    if (first) {
      first = false;
      scan.bom = bomOf(chunk);
      const bom = scan.bom?.encoding;
      if (
        declared === 'utf-16le' ||
        declared === 'utf-16be' ||
        (declared === 'auto' && bom && bom !== 'utf-8')
      ) {
        const bigEndian = declared === 'auto' ? bom === 'utf-16be' : declared === 'utf-16be';
        utf16 = new Utf16Check(bigEndian);
      } else utf8 = new Utf8Check();
    }
    if (utf16) {
      utf16.push(chunk);
      if (utf16.invalidAt !== undefined) {
        complete = false;
        break;
      }
    } else if (utf8) {
      if (scan.notUtf8 === undefined) utf8.push(chunk);
      if (scan.notUtf8 === undefined && utf8.invalidAt !== undefined) {
        scan.notUtf8 = utf8.invalidAt;
        scan.bytes.set(utf8.invalidAt, utf8.invalidByte);
      }
      if (scan.notWindows1252 === undefined) {
        const at = firstUndefinedWindows1252(chunk);
        if (at !== -1) {
          scan.notWindows1252 = offset + at;
          scan.bytes.set(offset + at, chunk[at]);
        }
      }
      if (scan.nonAscii === undefined) {
        const at = firstNonAscii(chunk);
        if (at !== -1) scan.nonAscii = offset + at;
      }
      // Neither UTF-8 nor Windows-1252: nothing later in the file changes the verdict.
      if (scan.notUtf8 !== undefined && scan.notWindows1252 !== undefined) {
        complete = false;
        break;
      }
    }
    offset += chunk.length;
  }
  if (complete) watch?.end();
  if (utf16 && !utf16.end()) scan.notUtf16 = utf16.invalidAt;
  if (utf8 && scan.notUtf8 === undefined && !utf8.end() && utf8.invalidAt !== undefined) {
    scan.notUtf8 = utf8.invalidAt;
    scan.bytes.set(utf8.invalidAt, utf8.invalidByte);
  }
  return scan;
}

async function byteAt(file: ExportFile, offset: number): Promise<number | undefined> {
  for await (const chunk of readChunks(file, { start: offset, end: offset + 1 })) return chunk[0];
  return undefined;
}

/**
 * The 1-based line of a byte offset: the line breaks (CRLF, CR, LF) before it are counted by
 * reading the file again up to there. Only an error pays for it, so the happy path counts nothing.
 */
export async function lineAt(
  file: ExportFile,
  offset: number,
  unit: 1 | 2,
  bigEndian: boolean,
): Promise<number> {
  if (offset === 0) return 1;
  let line = 1;
  let afterCr = false;
  let odd: number | undefined;
  const step = (unit: number) => {
    if (unit === 0x0a) {
      if (!afterCr) line++;
      afterCr = false;
    } else if (unit === 0x0d) {
      line++;
      afterCr = true;
    } else afterCr = false;
  };
  for await (const chunk of readChunks(file, { start: 0, end: offset })) {
    for (const b of chunk) {
      if (unit === 1) step(b);
      else if (odd === undefined) odd = b;
      else {
        step(bigEndian ? (odd << 8) | b : (b << 8) | odd);
        odd = undefined;
      }
    }
  }
  return line;
}
