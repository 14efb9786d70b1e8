import { type Columns, columnsFrom } from '../row.js';

/** The named cells of an entry, in this order (what a feed's mapping may name). */
export const MT940_CELLS = [
  'valueDate',
  'bookingDate',
  'amount',
  'currency',
  'mark',
  'fundsCode',
  'transactionType',
  'customerReference',
  'bankReference',
  'supplementaryDetails',
  'gvc',
  'postingText',
  'primaNota',
  'purpose',
  'purposeText',
  'counterpartyName',
  'counterpartyIban',
  'counterpartyBic',
  'counterpartyAccount',
  'counterpartyBankCode',
  'textKeyExtension',
  'endToEndReference',
  'sepaCustomerReference',
  'mandateReference',
  'creditorId',
  'debtorId',
  'ultimateDebtor',
  'ultimateCreditor',
  'originalAmount',
  'compensationAmount',
  'account',
  'statementReference',
  'relatedReference',
  'statement',
  'messageType',
  'status',
] as const;
export type Mt940Cell = (typeof MT940_CELLS)[number];

export const MT940_COLUMNS: Columns = columnsFrom(MT940_CELLS);

/** The SEPA tags of `:86:` that get a cell of their own (SVWZ+ is the purpose). */
export const SEPA_CELLS: readonly [string, Mt940Cell][] = [
  ['EREF', 'endToEndReference'],
  ['KREF', 'sepaCustomerReference'],
  ['MREF', 'mandateReference'],
  ['CRED', 'creditorId'],
  ['DEBT', 'debtorId'],
  ['ABWA', 'ultimateDebtor'],
  ['ABWE', 'ultimateCreditor'],
  ['OAMT', 'originalAmount'],
  ['COAM', 'compensationAmount'],
];
