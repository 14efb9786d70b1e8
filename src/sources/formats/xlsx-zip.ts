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

/** The parts of an opened workbook by name, and a text stream of any of them. */
export interface ZipParts {
  has(name: string): boolean;
  /** The part's XML as UTF-8 text (undefined when the archive has no such part). */
  text(name: string): Promise<NodeJS.ReadableStream | undefined>;
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
    text: async (name) => {
      const entry = entries.get(name);
      if (!entry) return undefined;
      const stream = await zip.openReadStreamPromise(entry);
      stream.setEncoding('utf8');
      return stream;
    },
    close: () => zip.close(),
  };
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
