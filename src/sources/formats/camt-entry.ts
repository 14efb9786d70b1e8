import { type Booking, bookingPartId, type StatementAppearance } from '../booking.js';
import { accountKey } from '../statement-account.js';
import { addDecimals, isZeroDecimal } from '../values/decimal.js';
import type { Captured } from './camt-captured.js';
import type { CamtRowData } from './camt-row.js';

/** The statement (report, notification) an entry belongs to. */
export interface CamtStatement {
  message: string;
  values: Captured;
  /** Its account as compared and its appearance, once an entry needed them (placeOf). */
  place?: StatementPlace;
}

/** The length of one `Ustrd` element at most (ISO 20022 Max140Text). */
const USTRD_MAX = 140;

/** An EndToEndId that says there is none. */
const NOT_PROVIDED = 'NOTPROVIDED';

/** ISO 20022 amounts: digits, a decimal point and at most five fraction digits, never a sign. */
const AMOUNT = /^\d{1,18}(?:\.\d{1,5})?$/;

/*
 * The paths read are spelt out as constants: a path built per entry (`${role}/Nm`) is a new string
 * to hash for every lookup, a cost that showed in a profile of two hundred thousand entries.
 */
const DATES = {
  BookgDt: { date: 'BookgDt/Dt', dateTime: 'BookgDt/DtTm' },
  ValDt: { date: 'ValDt/Dt', dateTime: 'ValDt/DtTm' },
} as const;

const PARTIES = {
  Dbtr: { names: ['RltdPties/Dbtr/Nm', 'RltdPties/Dbtr/Pty/Nm'], iban: 'RltdPties/DbtrAcct/Id/IBAN' },
  Cdtr: { names: ['RltdPties/Cdtr/Nm', 'RltdPties/Cdtr/Pty/Nm'], iban: 'RltdPties/CdtrAcct/Id/IBAN' },
} as const;

/** A transaction's own amount in a detail: `Amt` (v3 on), else `AmtDtls/TxAmt/Amt`. */
const DETAIL_AMOUNTS = [
  { amount: 'Amt', currency: 'Amt@Ccy' },
  { amount: 'AmtDtls/TxAmt/Amt', currency: 'AmtDtls/TxAmt/Amt@Ccy' },
] as const;

/** `Dt`, or the date part of `DtTm` as the bank wrote it (its own local date, not converted to UTC). */
function dateOf(values: Captured, element: keyof typeof DATES): string {
  const paths = DATES[element];
  const date = values.first(paths.date);
  if (date !== '') return date;
  const dateTime = values.first(paths.dateTime);
  return /^\d{4}-\d{2}-\d{2}T/.test(dateTime) ? dateTime.slice(0, 10) : dateTime;
}

/** v8 wraps a party in `Pty`; earlier versions put `Nm` directly below `Dbtr`/`Cdtr`. */
function party(details: Captured | undefined, role: 'Dbtr' | 'Cdtr'): { name: string; iban: string } {
  if (!details) return { name: '', iban: '' };
  const paths = PARTIES[role];
  return { name: details.first(...paths.names), iban: details.first(paths.iban) };
}

/**
 * Unstructured remittance parts joined with a space. A part of exactly 140 characters (the
 * element's maximum) was cut by the bank at the limit, often mid-word: the next part continues it
 * without a space.
 */
function joinUnstructured(parts: readonly string[]): string {
  let text = '';
  let previous = '';
  for (const part of parts) {
    if (text !== '' && previous.length !== USTRD_MAX) text += ' ';
    text += part;
    previous = part;
  }
  return text;
}

/**
 * What a transaction was for: the `Ustrd` parts joined, then each structured creditor reference
 * (`Strd/CdtrRefInf/Ref`) not already in that text; without remittance information the
 * transaction's or the entry's additional information.
 */
function purposeOf(details: Captured | undefined, entry: Captured): { purpose: string; structured: string } {
  const structured = details?.all('RmtInf/Strd/CdtrRefInf/Ref') ?? [];
  let purpose = joinUnstructured(details?.all('RmtInf/Ustrd') ?? []);
  for (const ref of structured) if (!purpose.includes(ref)) purpose = purpose ? `${purpose} ${ref}` : ref;
  if (purpose === '') purpose = details?.first('AddtlTxInf') ?? '';
  if (purpose === '') purpose = entry.first('AddtlNtryInf');
  return { purpose, structured: structured.join(' ') };
}

/** The bank transaction code: ISO domain/family/sub-family, else the proprietary code. */
function transactionCode(values: Captured | undefined): string {
  if (!values) return '';
  const domain = values.first('BkTxCd/Domn/Cd');
  if (domain !== '')
    return [domain, values.first('BkTxCd/Domn/Fmly/Cd'), values.first('BkTxCd/Domn/Fmly/SubFmlyCd')]
      .filter((c) => c !== '')
      .join('/');
  return values.first('BkTxCd/Prtry/Cd');
}

function endToEndOf(details: Captured | undefined): string {
  const id = details?.first('Refs/EndToEndId') ?? '';
  return id.toUpperCase() === NOT_PROVIDED ? '' : id;
}

function detailAmount(details: Captured): { amount: string; currency: string } | undefined {
  for (const paths of DETAIL_AMOUNTS) {
    const amount = details.first(paths.amount);
    if (amount !== '') return { amount, currency: details.first(paths.currency) };
  }
  return undefined;
}

type Sign = 'CRDT' | 'DBIT';

const isSign = (indicator: string): indicator is Sign => indicator === 'CRDT' || indicator === 'DBIT';

/** A debit is negative (a zero amount stays unsigned). */
export function signed(amount: string, sign: Sign): string {
  return sign === 'DBIT' && !isZeroDecimal(amount) ? `-${amount}` : amount;
}

/** Why an entry (or detail) cannot become a row, naming the element, or its amount and sign. */
export function amountOf(
  values: Captured,
  what: string,
): { amount: string; currency: string; sign: Sign } | string {
  const amount = values.first('Amt');
  if (amount === '') return `${what} has no Amt`;
  if (!AMOUNT.test(amount))
    return `${what}: Amt "${amount}" is not an ISO 20022 amount (digits with a decimal point, e.g. 1234.56)`;
  const indicator = values.first('CdtDbtInd');
  if (!isSign(indicator))
    return `${what}: CdtDbtInd "${indicator}" is neither CRDT (credit) nor DBIT (debit)`;
  return { amount, currency: values.first('Amt@Ccy'), sign: indicator };
}

/** An entry's own signed amount (`Ntry/Amt` with its `CdtDbtInd`), or undefined when it does not read. */
export function entryAmount(entry: Captured): string | undefined {
  const read = amountOf(entry, 'Ntry');
  return typeof read === 'string' ? undefined : signed(read.amount, read.sign);
}

/**
 * The rows of one entry, or why it has none. One row per entry; a batch entry whose transaction
 * details each carry their own amount, adding up to the entry's, becomes one row per detail.
 *
 * The sign is the entry's `CdtDbtInd`: a debit is negative. `RvslInd` does not flip it again:
 * ISO 20022's usage rule says a reversal's `CdtDbtInd` is already the direction of the reversal
 * booking (CRDT with RvslInd true reverses a debit), so the reversal carries the sign opposite to
 * the entry it undoes. The counterparty is the debtor of a credit and the creditor of a debit;
 * a reversal keeps the roles of the payment it undoes.
 */
export function entryRows(
  entry: Captured,
  details: readonly Captured[],
  statement: CamtStatement,
): CamtRowData[] | string {
  const read = amountOf(entry, 'Ntry');
  if (typeof read === 'string') return read;
  const account = statement.values.first('Acct/Id/IBAN', 'Acct/Id/Othr/Id');
  const statementId = statement.values.first('Id');
  const place = placeOf(statement, account, statementId);
  const reversal = entry.first('RvslInd').toLowerCase() === 'true';
  const base: EntryBase = {
    entry,
    reversal,
    appearance: place.appearance,
    bookingDate: dateOf(entry, 'BookgDt'),
    valueDate: dateOf(entry, 'ValDt'),
    status: entry.first('Sts/Cd', 'Sts', 'Sts/Prtry'),
    reversalText: reversal ? 'true' : 'false',
    accountServicerReference: entry.first('AcctSvcrRef'),
    entryReference: entry.first('NtryRef'),
    account,
    accountIban: statement.values.first('Acct/Id/IBAN'),
    accountCurrency: statement.values.first('Acct/Ccy'),
    statementId,
    message: statement.message,
  };
  const entryReference = base.accountServicerReference || base.entryReference;
  const claim = bookingClaim(entry, base.accountServicerReference, place.accountKey, read, base.bookingDate);
  const split = splitBatch(details, read);
  if (!split) {
    // Several details without amounts of their own: one row for the entry, and no counterparty or
    // end-to-end reference, since they belong to one detail each.
    const only = details.length === 1 ? details[0] : undefined;
    const reference = entryReference || endToEndOf(only);
    if (claim) {
      // Its first part, should the service hold the booking as parts; with details, also as a
      // version before 2026-11-28 named them.
      claim.others.push(partId(claim, 1));
      if (details.length > 1)
        details.forEach((detail, i) => {
          claim.others.push(earlierPartId(entryReference, detail, i));
        });
    }
    return [rowOf(base, entry.line, read, only, reference, claim)];
  }
  // What each part compares with the parts the service holds of the booking, should it lack the
  // part itself (a later file splitting the batch into more parts): one text for all of them.
  const amounts = claim && split.map(({ amount }) => signed(amount.amount, amount.sign)).join(' ');
  return split.map(({ detail, amount }, i) => {
    // A booking's parts are named by the booking and their place in it: a plain appearance of
    // the booking finds its first part in the service by that name (docs/identity.md). The name
    // an earlier version gave the part is asked for too, so a rerun finds the parts it created.
    const earlier = earlierPartId(entryReference, detail, i);
    const reference = claim ? partId(claim, i + 1) : earlier;
    const booking =
      claim && partOf(claim, earlier === reference ? [claim.reference] : [claim.reference, earlier], amounts);
    return rowOf(base, detail.line, amount, detail, reference, booking);
  });
}

/** What the rows of one entry share. */
interface EntryBase {
  entry: Captured;
  reversal: boolean;
  appearance: StatementAppearance | undefined;
  bookingDate: string;
  valueDate: string;
  status: string;
  reversalText: string;
  accountServicerReference: string;
  entryReference: string;
  account: string;
  accountIban: string;
  accountCurrency: string;
  statementId: string;
  message: string;
}

/** One row of an entry: the entry's own, or one transaction of its batch (`detail`). */
function rowOf(
  base: EntryBase,
  line: number,
  amount: { amount: string; currency: string; sign: Sign },
  detail: Captured | undefined,
  reference: string,
  booking: Booking | undefined,
): CamtRowData {
  const { entry } = base;
  const debtor = party(detail, 'Dbtr');
  const creditor = party(detail, 'Cdtr');
  const counterparty = (amount.sign === 'CRDT') !== base.reversal ? debtor : creditor;
  const { purpose, structured } = purposeOf(detail, entry);
  // One literal with every key (no spread of `base`, no key added later): adding keys to a built
  // object made each row slow to build, a quarter of the reader's time in a profile.
  return {
    line,
    cells: {
      bookingDate: base.bookingDate,
      valueDate: base.valueDate,
      amount: signed(amount.amount, amount.sign),
      currency: amount.currency,
      status: base.status,
      reversal: base.reversalText,
      reference,
      accountServicerReference: base.accountServicerReference,
      entryReference: base.entryReference,
      endToEndId: endToEndOf(detail),
      purpose,
      structuredReference: structured,
      counterpartyName: counterparty.name,
      counterpartyIban: counterparty.iban,
      debtorName: debtor.name,
      debtorIban: debtor.iban,
      creditorName: creditor.name,
      creditorIban: creditor.iban,
      bankTransactionCode: transactionCode(entry) || transactionCode(detail),
      additionalInfo: detail?.first('AddtlTxInf') || entry.first('AddtlNtryInf'),
      account: base.account,
      accountIban: base.accountIban,
      accountCurrency: base.accountCurrency,
      statementId: base.statementId,
      message: base.message,
    },
    booking,
    bookingId: booking && reference,
    statement: base.appearance,
  };
}

/**
 * A part's reference as the entry's `AcctSvcrRef` does not name it: its own `Refs/AcctSvcrRef`,
 * else the entry's reference and its EndToEndId (or its place); the name of every part before
 * 2026-11-28.
 */
const earlierPartId = (entryReference: string, detail: Captured, i: number): string =>
  detail.first('Refs/AcctSvcrRef') ||
  (entryReference && `${entryReference}/${endToEndOf(detail) || `#${i + 1}`}`) ||
  endToEndOf(detail);

/** The externalId of part `n` of a split booking. */
const partId = (claim: Booking, n: number): string => bookingPartId(claim.reference, n);

/**
 * The booking an entry with an `AcctSvcrRef` is: the bank's own reference, unique for the account;
 * its `others` still to be named.
 */
function bookingClaim(
  entry: Captured,
  reference: string,
  account: string,
  read: { amount: string; sign: Sign },
  date: string,
): Booking | undefined {
  if (reference === '') return undefined;
  return { reference, account, amount: signed(read.amount, read.sign), date, line: entry.line, others: [] };
}

/** One part of a split booking: the entry's booking, with the part's own other shapes and the split. */
const partOf = (claim: Booking, others: string[], split: string | undefined): Booking => ({
  reference: claim.reference,
  account: claim.account,
  amount: claim.amount,
  date: claim.date,
  line: claim.line,
  others,
  ...(split === undefined ? {} : { split }),
});

/** A statement's account as compared, and where it starts when it has an `Id` (its appearance). */
export interface StatementPlace {
  /** The account and `Id` as the statement gives them: the place is worked out again if they differ. */
  account: string;
  id: string;
  accountKey: string;
  /** A second appearance of the statement repeats its entries' derived IDs. */
  appearance: StatementAppearance | undefined;
}

/** The statement's place, worked out at its first entry and kept for the others (they share it). */
function placeOf(statement: CamtStatement, account: string, id: string): StatementPlace {
  const known = statement.place;
  if (known && known.account === account && known.id === id) return known;
  const key = accountKey(account);
  const place: StatementPlace = {
    account,
    id,
    accountKey: key,
    appearance: id === '' ? undefined : { key: `${key}\u0000${id}`, line: statement.values.line },
  };
  statement.place = place;
  return place;
}

/**
 * The details of a batch entry with their amounts, when each has its own and together they give
 * the entry's amount; undefined when the entry stays one row.
 */
function splitBatch(
  details: readonly Captured[],
  entry: { amount: string; currency: string; sign: Sign },
): { detail: Captured; amount: { amount: string; currency: string; sign: Sign } }[] | undefined {
  if (details.length < 2) return undefined;
  const split: { detail: Captured; amount: { amount: string; currency: string; sign: Sign } }[] = [];
  let total = '0';
  for (const detail of details) {
    const own = detailAmount(detail);
    if (!own || !AMOUNT.test(own.amount) || own.currency !== entry.currency) return undefined;
    const indicator = detail.first('CdtDbtInd') || entry.sign;
    if (!isSign(indicator)) return undefined;
    const amount = { amount: own.amount, currency: own.currency, sign: indicator };
    split.push({ detail, amount });
    total = addDecimals(total, signed(own.amount, indicator));
  }
  return total === addDecimals(signed(entry.amount, entry.sign), '0') ? split : undefined;
}
