import type { Booking, StatementAppearance } from '../booking.js';
import { type ColumnRef, type Columns, columnsFrom, type SourceRow } from '../row.js';

/** The named cells of a camt row, in this order: a feed's mapping and exclude rules name them. */
export const CAMT_CELLS = [
  'bookingDate',
  'valueDate',
  'amount',
  'currency',
  'status',
  'reversal',
  'reference',
  'accountServicerReference',
  'entryReference',
  'endToEndId',
  'purpose',
  'structuredReference',
  'counterpartyName',
  'counterpartyIban',
  'debtorName',
  'debtorIban',
  'creditorName',
  'creditorIban',
  'bankTransactionCode',
  'additionalInfo',
  'account',
  'accountIban',
  'accountCurrency',
  'statementId',
  'message',
] as const;
export type CamtCell = (typeof CAMT_CELLS)[number];
export type CamtCells = Record<CamtCell, string>;

/** One row of a camt file: an entry, or one transaction of a batch entry. */
export interface CamtRowData {
  line: number;
  cells: CamtCells;
  /** The booking the row is (part of), when the entry has an `AcctSvcrRef`. */
  booking: Booking | undefined;
  /** With `booking`: the row's reference cell, its externalId under the default mapping. */
  bookingId: string | undefined;
  /** The statement's appearance, when it has an `Id`. */
  statement: StatementAppearance | undefined;
}

/** A camt file has no header: its columns are the named cells every row has. */
export const CAMT_COLUMNS: Columns = columnsFrom(CAMT_CELLS);

/** Entry statuses that are not a booking on the account, with why such an entry is left out. */
const NOT_BOOKED = new Map([
  ['PDNG', 'pending (status PDNG): the bank books it later, and the booked entry is synced then'],
  ['INFO', 'for information only (status INFO): not booked on the account'],
  ['FUTR', 'a future booking (status FUTR): the booked entry is synced once it is booked'],
]);

/** Why an entry with this status is left out, or undefined for a booked one (BOOK, or no status). */
export function notBooked(status: string): string | undefined {
  const reason = NOT_BOOKED.get(status);
  return reason === undefined ? undefined : `left out: ${reason} (source.includePending reads it)`;
}

/** One row of a camt file: its named cells, read by name or by their place in CAMT_CELLS. */
export class CamtRow implements SourceRow {
  readonly file: string;
  readonly line: number;
  private readonly cells: CamtCells;
  /** Why the format leaves this row out (an entry not booked yet), counted as skipped. */
  readonly leftOut: string | undefined;
  readonly booking: Booking | undefined;
  readonly bookingId: string | undefined;
  readonly statement: StatementAppearance | undefined;

  constructor(file: string, data: CamtRowData, leftOut: string | undefined) {
    this.file = file;
    this.line = data.line;
    this.cells = data.cells;
    this.leftOut = leftOut;
    this.booking = data.booking;
    this.bookingId = data.bookingId;
    this.statement = data.statement;
  }

  cell(ref: ColumnRef): string | undefined {
    const index = CAMT_COLUMNS.indexOf(ref);
    return index === undefined ? undefined : this.cellAt(index);
  }

  cellAt(index: number): string | undefined {
    const name = CAMT_CELLS[index];
    return name === undefined ? undefined : this.cells[name];
  }

  text(): string {
    return JSON.stringify(this.cells);
  }
}
