import { statementTransactions } from './bank-statement.js';
import { CamtSource } from './camt-source.js';
import { lazyReading } from './lazy-reading.js';
import type { SourceFormat } from './source-format.js';

/** ISO 20022 bank statements: every booked entry of a camt.052/053/054 file is a record. */
export const camtFormat: SourceFormat<typeof CamtSource> = {
  schema: CamtSource,
  read: (file, text, source) =>
    lazyReading(
      import('./camt-reader.js').then(({ readCamt }) => readCamt(file, text, source)),
      { statements: true },
    ),
  position: 'line',
  fixedDates: true,
  leastContent: () =>
    'a camt file has at least its Document with one statement, report or notification; a bank with nothing booked sends one without entries',
  routeCells: { account: 'account', currency: 'accountCurrency', iban: 'accountIban' },
  defaultMapping: statementTransactions('reference'),
  docs: 'ISO 20022 camt.053 statements, camt.052 reports and camt.054 notifications (versions .001.02 to .001.08): each entry (`Ntry`) is a record, each transaction of a batch entry that carries its own amounts; its cells are named (see reading-exports.md)',
};
