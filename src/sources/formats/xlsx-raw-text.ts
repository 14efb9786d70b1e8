import type { ByteInput } from './source-format.js';
import type { XlsxSource } from './xlsx-source.js';
import { SHARED_STRINGS } from './xlsx-workbook.js';
import { openZip } from './xlsx-zip.js';

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * The raw XML of every part of a workbook that can hold a text cell (the shared strings and the
 * worksheets), inflated but not parsed: what a cheap scan for text in some shape (the date-format
 * check's first step) reads instead of the workbook's cells. Bounded like the reader: the same
 * size and ratio caps (a part past one throws its XlsxCapError).
 */
export async function* xlsxRawText(
  file: string,
  input: ByteInput,
  source: XlsxSource,
): AsyncGenerator<string> {
  const zip = await openZip(file, input);
  try {
    for (const name of zip.names()) {
      const shared = name === SHARED_STRINGS;
      if (!shared && !WORKSHEET.test(name)) continue;
      const text = await zip.text(name, {
        maxBytes: shared ? source.maxSharedStringsBytes : Number.POSITIVE_INFINITY,
        maxRatio: source.maxCompressionRatio,
      });
      if (text) for await (const chunk of text) yield String(chunk);
    }
  } finally {
    zip.close();
  }
}
