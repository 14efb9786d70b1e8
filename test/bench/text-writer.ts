import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import iconv from 'iconv-lite';

/**
 * Writes a generated file as a stream, in the given encoding, waiting when the stream asks to: the
 * benchmarks' inputs run to a gigabyte and never sit in memory. `close` gives the bytes written.
 */
export function textWriter(file: string, encoding = 'utf-8') {
  const out = createWriteStream(file);
  const bytesOf = (text: string) =>
    encoding === 'utf-8' ? Buffer.from(text, 'utf8') : iconv.encode(text, encoding);
  return {
    put: async (text: string) => {
      if (!out.write(bytesOf(text))) await once(out, 'drain');
    },
    /** Raw bytes as they are (a zip's headers and deflated data). */
    putBytes: async (bytes: Buffer) => {
      if (!out.write(bytes)) await once(out, 'drain');
    },
    close: async () => {
      out.end();
      await once(out, 'close');
      return out.bytesWritten;
    },
  };
}
