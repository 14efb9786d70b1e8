import { readCsvBatches } from './csv-reader.js';
import { CsvSource } from './csv-source.js';
import { headerFirst, type SourceFormat } from './source-format.js';

/** CSV with any delimiter: a header row names the columns, each further row is a record. */
export const csvFormat: SourceFormat<typeof CsvSource> = {
  schema: CsvSource,
  read: readCsvBatches,
  position: 'line',
  leastContent: headerFirst('line'),
  docs: 'CSV (any delimiter, quote, preamble and footer lines): a header row names the columns, every further row is a record',
};
