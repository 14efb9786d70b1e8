import { PassThrough, Readable } from 'node:stream';
import yauzl from 'yauzl';
import { FileStopError } from '../file-stop.js';
import type { Location } from '../locations/location.js';
import type { ByteInput } from './source-format.js';

/** A workbook file that is not what an xlsx feed expects (not a zip, no workbook, no such sheet). */
export class XlsxFileError extends FileStopError {
  constructor(file: string, message: string) {
    super('XLSX_UNREADABLE', file, `${file}: ${message}`);
  }
}

/**
 * Reads the file's ranges for yauzl (ranged reads of its location: a remote workbook is never
 * copied whole) and counts every byte read: the progress bar then follows what the reader really
 * consumed, although a zip is read out of order.
 */
class CountingReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly location: Location,
    private readonly path: string,
    private readonly countRead: (bytes: number) => void,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    if (end <= start) return Readable.from([]);
    const bytes = this.location.read(this.path, { start, end });
    const counted = new PassThrough({
      transform: (chunk: Buffer, _encoding, done) => {
        this.countRead(chunk.length);
        done(null, chunk);
      },
    });
    bytes.on('error', (error) => counted.destroy(error));
    return bytes.pipe(counted);
  }

  override close(callback: (err: Error | null) => void): void {
    callback(null);
  }
}

/**
 * A part past a cap of the workbook (its inflated size or its compression ratio): the file is
 * refused before the part is inflated (exit 2), naming the part and the feed key to raise.
 */
export class XlsxCapError extends FileStopError {
  constructor(file: string, message: string) {
    super('SOURCE_TOO_LARGE', file, `${file}: ${message}`);
  }
}

/** How far a part may inflate: its size and, for a part over 1 MiB, its compression ratio. */
export interface PartCaps {
  /** Inflated bytes; Infinity for a part that is streamed (a sheet). */
  readonly maxBytes: number;
  readonly maxRatio: number;
}

/** Small parts compress as they like (a run of spaces); the ratio is a bomb's mark on large ones. */
const RATIO_FROM_BYTES = 1024 * 1024;

/** The parts of an opened workbook by name, and a text stream of any of them. */
export interface ZipParts {
  has(name: string): boolean;
  /**
   * The part's XML as UTF-8 text (undefined when the archive has no such part); an XlsxCapError
   * when its directory entry says it inflates past `caps` (the zip reader holds the part to that
   * size: yauzl fails a part that inflates to more than its entry says).
   */
  text(name: string, caps: PartCaps): Promise<NodeJS.ReadableStream | undefined>;
  close(): void;
}

/** Opens the file as a zip archive; anything that is not one is a file-level error. */
export async function openZip(file: string, input: ByteInput): Promise<ZipParts> {
  let zip: yauzl.ZipFile;
  try {
    const found = await input.location.stat(input.path);
    if (!found) throw new Error('the file is gone');
    const { size } = found;
    // yauzl reads the directory's region twice (to find it, then to list it): progress is capped
    // at the file's size so the bar never runs past its end.
    let counted = 0;
    const count = (bytes: number) => {
      const add = Math.min(bytes, size - counted);
      counted += add;
      input.countRead(add);
    };
    zip = await yauzl.fromRandomAccessReaderPromise(
      new CountingReader(input.location, input.path, count),
      size,
      {
        lazyEntries: true,
        autoClose: false,
      },
    );
  } catch (error) {
    throw new XlsxFileError(
      file,
      `not an xlsx workbook: the file is not a zip archive (${(error as Error).message}); an .xls, .ods or password-protected workbook must be saved as .xlsx first`,
    );
  }
  const entries = await listEntries(file, zip);
  return {
    has: (name) => entries.has(name),
    text: async (name, caps) => {
      const entry = entries.get(name);
      if (!entry) return undefined;
      checkPart(file, entry, caps);
      const stream = await zip.openReadStreamPromise(entry);
      stream.setEncoding('utf8');
      return stream;
    },
    close: () => zip.close(),
  };
}

function checkPart(file: string, entry: yauzl.Entry, caps: PartCaps): void {
  const size = entry.uncompressedSize;
  if (size > caps.maxBytes)
    throw new XlsxCapError(
      file,
      `the part ${entry.fileName} inflates to ${size} bytes, more than ${caps.maxBytes}; the workbook is not read`,
    );
  const ratio = size / Math.max(entry.compressedSize, 1);
  if (size > RATIO_FROM_BYTES && ratio > caps.maxRatio)
    throw new XlsxCapError(
      file,
      `the part ${entry.fileName} inflates ${Math.floor(ratio)} times (${entry.compressedSize} to ${size} bytes), more than maxCompressionRatio (${caps.maxRatio}): a zip bomb, not an export; the workbook is not read`,
    );
}

function listEntries(file: string, zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: Error) => {
      zip.close();
      reject(
        new XlsxFileError(file, `not an xlsx workbook: its zip directory is damaged (${error.message})`),
      );
    });
    zip.readEntry();
  });
}
