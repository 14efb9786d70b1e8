import { compileDateFormat, parseDate } from '../values/date.js';
import { failed, type Parsed, parsed } from '../values/result.js';

/** A `:61:` statement line, read. */
export interface EntryLine {
  /** yyyy-MM-dd */
  valueDate: string;
  /** yyyy-MM-dd: the entry date when the bank gives one, else the value date. */
  bookingDate: string;
  /** C, D, RC (reversal of a credit) or RD (reversal of a debit). */
  mark: string;
  fundsCode?: string;
  /** Signed exact decimal text, e.g. "-20.00" (D and RC are money out). */
  amount: string;
  /** e.g. N037, NMSC. */
  transactionType: string;
  customerReference?: string;
  bankReference?: string;
  supplementaryDetails?: string;
}

/**
 * Value date YYMMDD, entry date MMDD (optional), the mark, the funds code (the third letter of
 * the currency, optional), the amount with a decimal comma, a space some banks write, the
 * transaction type (a letter and three characters: N037, NMSC, NOV with its space), then the
 * customer reference and the bank's own after `//`.
 */
const ENTRY_LINE = /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d{1,15},\d{0,2})\s?([A-Z][A-Z0-9 ]{3})(.*)$/;

const YY_MM_DD = compileDateFormat('yy.MM.dd');

/** "NONREF" is how MT940 writes "no reference". */
const reference = (text: string | undefined): string | undefined => {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' || trimmed.toUpperCase() === 'NONREF' ? undefined : trimmed;
};

/**
 * Reads a `:61:` field: its lines as written after the tag. The first line is the statement line
 * and a second one its supplementary details; a bank that broke the statement line itself (an
 * amount split over two lines) is read by trying the first two lines joined.
 */
export function readEntryLine(lines: readonly string[]): Parsed<EntryLine> {
  const first = (lines[0] ?? '').trim();
  const alone = readStatementLine(first);
  if (alone.ok || lines.length < 2) return withDetails(alone, lines.slice(1));
  const joined = readStatementLine(first + (lines[1] ?? '').trim());
  return joined.ok ? withDetails(joined, lines.slice(2)) : withDetails(alone, lines.slice(1));
}

function withDetails(line: Parsed<EntryLine>, rest: readonly string[]): Parsed<EntryLine> {
  if (!line.ok) return line;
  const details = rest
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join(' ');
  return details === '' ? line : parsed({ ...line.value, supplementaryDetails: details });
}

function readStatementLine(text: string): Parsed<EntryLine> {
  const match = ENTRY_LINE.exec(text);
  if (!match) {
    return failed(
      `":61:${text}" is not a statement line: expected value date YYMMDD, optional entry date MMDD, C, D, RC or RD, optional funds code letter, amount with a decimal comma (e.g. 1902180218DR20,00N037NONREF)`,
    );
  }
  const [, value = '', entry, mark = '', fundsCode, amountText = '', type = '', refs = ''] = match;
  const valueDate = dateOf(value);
  if (!valueDate.ok) return failed(`:61: value date "${value}" (YYMMDD): ${valueDate.reason}`);
  let bookingDate = valueDate.value;
  if (entry !== undefined) {
    const entryDate = entryDateOf(entry, valueDate.value);
    if (!entryDate.ok) return failed(`:61: entry date "${entry}" (MMDD): ${entryDate.reason}`);
    bookingDate = entryDate.value;
  }
  const [customer, bank] = splitOnce(refs, '//');
  const debit = mark === 'D' || mark === 'RC';
  const line: EntryLine = {
    valueDate: valueDate.value,
    bookingDate,
    mark,
    amount: `${debit ? '-' : ''}${decimalOf(amountText)}`,
    transactionType: type.trim(),
  };
  if (fundsCode !== undefined) line.fundsCode = fundsCode;
  const customerReference = reference(customer);
  if (customerReference !== undefined) line.customerReference = customerReference;
  const bankReference = reference(bank);
  if (bankReference !== undefined) line.bankReference = bankReference;
  return parsed(line);
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

/** "1234,5" → "1234.5", "0," → "0", "0020,00" → "20.00": exact, never through a float. */
export function decimalOf(text: string): string {
  const [whole = '', fraction = ''] = text.split(',');
  const digits = whole.replace(/^0+(?=\d)/, '');
  return fraction === '' ? digits : `${digits}.${fraction}`;
}

/** YYMMDD → yyyy-MM-dd (years 00-68 are 20xx, as everywhere in the bridge), a calendar date. */
export function dateOf(yymmdd: string): Parsed<string> {
  return parseDate(`${yymmdd.slice(0, 2)}.${yymmdd.slice(2, 4)}.${yymmdd.slice(4, 6)}`, YY_MM_DD);
}

/**
 * MMDD of the entry date in the value date's year, or the year before or after when the months
 * are more than half a year apart (booked on 2 January for a value date of 31 December).
 */
function entryDateOf(mmdd: string, valueDate: string): Parsed<string> {
  const valueYear = Number(valueDate.slice(0, 4));
  const gap = Number(mmdd.slice(0, 2)) - Number(valueDate.slice(5, 7));
  const year = gap > 6 ? valueYear - 1 : gap < -6 ? valueYear + 1 : valueYear;
  return dateOf(`${String(year % 100).padStart(2, '0')}${mmdd}`);
}
