import type { ByteInput } from './source-format.js';
import type { XlsxSource } from './xlsx-source.js';
import { findSheet, SHARED_STRINGS } from './xlsx-workbook.js';
import { openZip } from './xlsx-zip.js';

/**
 * The raw XML of the parts that can hold a text cell of the sheet the feed reads (the shared
 * strings and that sheet, found as the reader finds it), inflated but not parsed: what a cheap
 * scan for text in some shape (the date-format check's first step) reads instead of the
 * workbook's cells. Bounded like the reader: the same size and ratio caps (a part past one throws
 * its XlsxCapError).
 */
export async function* xlsxRawText(
  file: string,
  input: ByteInput,
  source: XlsxSource,
): AsyncGenerator<string> {
  const zip = await openZip(file, input);
  try {
    const { sheetPart } = await findSheet(file, zip, source.sheet, source);
    for (const name of [SHARED_STRINGS, sheetPart]) {
      const shared = name === SHARED_STRINGS;
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
