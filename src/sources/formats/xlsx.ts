import { lazyReading } from './lazy-reading.js';
import { headerFirst, type SourceFormat } from './source-format.js';
import { XlsxSource } from './xlsx-source.js';

/** Excel workbooks: one sheet's header row names the columns, every further row is a record. */
export const xlsxFormat: SourceFormat<typeof XlsxSource> = {
  schema: XlsxSource,
  input: 'bytes',
  read: (...args) =>
    lazyReading(
      import('./xlsx-reader.js').then(({ readXlsx }) => readXlsx(...args)),
      { sheet: true },
    ),
  rawText: async function* (...args) {
    const { xlsxRawText } = await import('./xlsx-raw-text.js');
    yield* xlsxRawText(...args);
  },
  position: 'row',
  leastContent: headerFirst('row'),
  docs: 'Excel workbooks (.xlsx): one sheet (the first, or `sheet`); a header row names the columns, every further row is a record, counted at its row number',
};
