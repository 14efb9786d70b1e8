import { headerFirst, type SourceFormat } from './source-format.js';
import { xlsxRawText } from './xlsx-raw-text.js';
import { readXlsx } from './xlsx-reader.js';
import { XlsxSource } from './xlsx-source.js';

/** Excel workbooks: one sheet's header row names the columns, every further row is a record. */
export const xlsxFormat: SourceFormat<typeof XlsxSource> = {
  schema: XlsxSource,
  input: 'bytes',
  read: readXlsx,
  rawText: xlsxRawText,
  position: 'row',
  leastContent: headerFirst('row'),
  docs: 'Excel workbooks (.xlsx): one sheet (the first, or `sheet`); a header row names the columns, every further row is a record, counted at its row number',
};
