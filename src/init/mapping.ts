import { INVOICE_STATUSES, type InvoiceStatus } from '../contract/enums.js';
import type { RecordKind } from '../kinds/registry.js';
import { KINDS } from '../kinds/registry.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import { type DecimalSeparator, parseAmount } from '../sources/values/amount.js';
import { compileDateFormat, parseDate } from '../sources/values/date.js';
import { type Column, columnRefOf, refOf } from './columns.js';
import { readsAll } from './dates.js';
import { ask, guess, type Inferred, quoted, sure, weaker } from './inferred.js';
import {
  CREDIT_NAMES,
  DEBIT_NAMES,
  INVOICE_NAMES,
  type NamePatterns,
  NET_NAMES,
  normalName,
  rankOf,
  TRANSACTION_NAMES,
} from './names.js';
import { type SignColumn, signedAmount, signReason } from './sign.js';
import { valueMapOf } from './value-map.js';

/** What the mapping's value checks read cells with: the inferred separator and date format. */
export interface ValueStyle {
  decimalSeparator: Inferred<DecimalSeparator>;
  dateFormat: Inferred<string>;
}

/** The kinds init maps from column names, and their vocabularies (names.ts). */
export const NAMED_KINDS: Partial<Record<RecordKind, Readonly<Record<string, NamePatterns>>>> = {
  transactions: TRANSACTION_NAMES,
  invoices: INVOICE_NAMES,
};

/** The best-named column for a field: lowest rank; undefined when none; `tied` when two share it. */
export function bestNamed(
  columns: readonly Column[],
  patterns: NamePatterns,
  taken: ReadonlySet<Column> = new Set(),
): { column: Column; tied: Column[] } | undefined {
  let best: { column: Column; rank: number; tied: Column[] } | undefined;
  for (const column of columns) {
    if (taken.has(column)) continue;
    const rank = rankOf(column.name, patterns);
    if (rank === undefined) continue;
    if (!best || rank < best.rank) best = { column, rank, tied: [] };
    else if (rank === best.rank) best.tied.push(column);
  }
  return best;
}

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
const CURRENCY = /^[A-Z]{3}$/;

/** Whether every value of the column reads as the field's type; the reason when not. */
function valuesFit(field: string, type: string, column: Column, style: ValueStyle): string | undefined {
  const bad = (test: (v: string) => boolean) => column.values.find((v) => !test(v));
  let wrong: string | undefined;
  // Undecided (`ask`): the values must read under one of the candidates the person picks from.
  if (type === 'date') {
    const formats =
      style.dateFormat.value === undefined ? (style.dateFormat.candidates ?? []) : [style.dateFormat.value];
    const fits = formats.find((f) => readsAll(column.values, f));
    if (fits === undefined)
      wrong = bad((v) => parseDate(v, compileDateFormat(formats[0] ?? 'yyyy-MM-dd')).ok) ?? column.values[0];
  } else if (type === 'amount') {
    const separators = amountSeparators(style.decimalSeparator);
    const fits = separators.find((s) => column.values.every((v) => parseAmount(v, s).ok));
    if (fits === undefined) wrong = bad((v) => parseAmount(v, separators[0] ?? '.').ok) ?? column.values[0];
  } else if (field === 'counterpartyIban') wrong = bad((v) => IBAN.test(v.replace(/\s/g, '').toUpperCase()));
  else if (field === 'currency') wrong = bad((v) => CURRENCY.test(v));
  return wrong === undefined
    ? undefined
    : `its value ${quoted(wrong)} is no ${field === 'counterpartyIban' ? 'IBAN' : field === 'currency' ? 'currency code' : type}`;
}

/** The separators amounts may be read with: the inferred one, or the candidates while it is asked. */
const amountSeparators = (inferred: Inferred<DecimalSeparator>): readonly DecimalSeparator[] =>
  inferred.value === undefined ? (inferred.candidates ?? []) : [inferred.value];

export interface MappingResult {
  mapping: Record<string, Inferred<FieldMapping>>;
  /** The columns the mapping reads. */
  used: Set<Column>;
}

/**
 * A mapping of the kind's fields from column names and values: a column named as banks or ERPs
 * name the field (names.ts) whose values all read as the field's type is `sure` — as sure as the
 * format setting it was read with; a name whose column has no values in the sample is a guess; a
 * name whose values do not fit is not mapped (the field is asked for when required). Amounts get
 * their sign from a sign column or separate debit/credit columns (amountOf).
 */
export function inferMapping(
  kind: RecordKind,
  columns: readonly Column[],
  style: ValueStyle,
  signs: readonly SignColumn[],
): MappingResult {
  const names = NAMED_KINDS[kind] ?? {};
  const fields = KINDS[kind].fields;
  const mapping: Record<string, Inferred<FieldMapping>> = {};
  const used = new Set<Column>(signs.filter((s) => s.named).map((s) => s.column));
  const amountField = kind === 'transactions' ? 'amount' : undefined;
  if (amountField) {
    const amount = amountOf(columns, style, signs, used);
    if (amount) mapping[amountField] = amount;
  }
  for (const [field, patterns] of Object.entries(names)) {
    if (field === amountField) continue;
    const spec = fields[field];
    if (!spec) continue;
    const found = bestNamed(columns, patterns, used);
    if (!found) continue;
    const { column, tied } = found;
    if (tied.length > 0) {
      mapping[field] = ask(
        `columns ${[column, ...tied].map((c) => quoted(c.name)).join(' and ')} are named alike; choose one`,
        [column, ...tied].map((c) => refOf(c, columns)),
      );
      continue;
    }
    const ref = refOf(column, columns);
    if (field === 'invoiceStatus' && column.values.length > 0) {
      mapping[field] = statusOf(column, ref);
      used.add(column);
      continue;
    }
    if (column.values.length === 0) {
      // A column named as a status (bezahlt, paid) may be a flag: a date only when its values are.
      if (spec.type === 'date' && STATUS_WORDS[normalName(column.name)]) continue;
      mapping[field] = guess(
        ref,
        `column ${quoted(column.name)} by its name; the sample has no value in it to check`,
      );
      used.add(column);
      continue;
    }
    const wrong = valuesFit(field, spec.type, column, style);
    if (wrong !== undefined) {
      // A date or amount that does not read is no such column; text the service takes as it is
      // (an old account number in an IBAN column) leaves the name's word, as a guess.
      if (spec.type === 'string') {
        mapping[field] = guess(
          ref,
          `column ${quoted(column.name)} by its name, but ${wrong}; the service takes the text as it is`,
        );
        used.add(column);
      }
      continue;
    }
    const basis =
      spec.type === 'date' ? style.dateFormat : spec.type === 'amount' ? style.decimalSeparator : undefined;
    const doubt = doubtOf(field, column, columns);
    const certainty = weaker(basis ? weaker('sure', basis.certainty) : 'sure', doubt ? 'guess' : 'sure');
    const reason = `${doubt ? `${doubt}; ` : ''}column ${quoted(column.name)}: its name, and ${column.values.length === 1 ? 'its one value reads' : `all ${column.values.length} values read`} as ${spec.type === 'string' ? (field === 'counterpartyIban' ? 'IBANs' : field === 'currency' ? 'currency codes' : 'text') : `${spec.type}s`}${basis && certainty !== 'sure' ? ` (once ${spec.type === 'date' ? 'the date format' : 'the decimal separator'} is confirmed)` : ''}`;
    mapping[field] = certainty === 'sure' ? sure(ref, reason) : guess(ref, reason);
    used.add(column);
    if (field === 'purpose') {
      const joined = withBookingText(column, columns, used);
      if (joined) mapping[field] = joined;
    }
  }
  return { mapping, used };
}

/** A bank's booking text column (LASTSCHRIFT, GUTSCHRIFT, ...): what kind of booking a row is. */
const BOOKING_TEXT = /^(buchungstext|umsatzart|buchungsart|bookingtext|transactiontype)$/;
/** The separator the project's own feeds join a booking text and a purpose with. */
const PURPOSE_SEPARATOR = ' / ';

/**
 * German bank exports keep the booking's kind (`Buchungstext`: LASTSCHRIFT, GUTSCHRIFT, ...) apart
 * from its purpose; the purpose alone loses it, so both are joined, the booking text first, as the
 * project's demo feeds do. A guess: some feeds want the purpose alone (the reason says how).
 */
function withBookingText(
  purpose: Column,
  columns: readonly Column[],
  used: Set<Column>,
): Inferred<FieldMapping> | undefined {
  const text = columns.find(
    (c) => !used.has(c) && BOOKING_TEXT.test(normalName(c.name)) && c.values.length > 0,
  );
  if (!text) return undefined;
  used.add(text);
  return guess(
    {
      columns: [columnRefOf(text, columns), columnRefOf(purpose, columns)],
      separator: PURPOSE_SEPARATOR,
    },
    `the booking text ${quoted(text.name)} (e.g. ${quoted(text.values[0] ?? '')}) joined before the purpose ${quoted(purpose.name)}: the purpose alone loses what kind of booking it is; map purpose: ${quoted(purpose.name)} to keep it apart`,
  );
}

/**
 * A doubt the values cannot settle: an invoice amount named only "Betrag"/"Amount" beside a net
 * column may be the net one as well as the gross one.
 */
function doubtOf(field: string, column: Column, columns: readonly Column[]): string | undefined {
  if (field !== 'totalGrossAmount' || /brutto|gross/.test(normalName(column.name))) return undefined;
  const net = columns.find((c) => NET_NAMES.test(normalName(c.name)));
  return net ? `gross or net? a net column ${quoted(net.name)} is beside it` : undefined;
}

/**
 * A transaction's amount with its sign. Never `sure` unless the values prove the sign: a plain
 * amount column is sure only when some sampled amount is negative (so the export writes debits
 * with a minus); all positive with no sign column is a guess saying so; an amount with both a
 * minus and a sign column, or both an amount and debit/credit columns, is asked.
 */
function amountOf(
  columns: readonly Column[],
  style: ValueStyle,
  signs: readonly SignColumn[],
  used: Set<Column>,
): Inferred<FieldMapping> | undefined {
  const separator = style.decimalSeparator;
  const reads = (c: Column) =>
    separator.value !== undefined &&
    c.values.every((v) => parseAmount(v, separator.value as DecimalSeparator).ok);
  const negative = (c: Column) =>
    separator.value !== undefined &&
    c.values.some((v) => {
      const read = parseAmount(v, separator.value as DecimalSeparator);
      return read.ok && read.value.decimal.startsWith('-');
    });
  const debit = bestNamed(columns, DEBIT_NAMES, used);
  const credit = bestNamed(columns, CREDIT_NAMES, used);
  const single = bestNamed(columns, TRANSACTION_NAMES.amount as NamePatterns, used);
  const basis = (reason: string, certainty: 'sure' | 'guess', value: FieldMapping) => {
    const c = weaker(certainty, separator.certainty);
    return c === 'sure'
      ? sure(value, reason)
      : guess(value, c === certainty ? reason : `${reason} (once the decimal separator is confirmed)`);
  };

  if (debit && credit && debit.tied.length === 0 && credit.tied.length === 0) {
    const pair: FieldMapping = {
      debit: columnRefOf(debit.column, columns),
      credit: columnRefOf(credit.column, columns),
    };
    if (single && single.column.values.length > 0 && reads(single.column))
      return ask(
        `both an amount column ${quoted(single.column.name)} and debit/credit columns ${quoted(debit.column.name)}/${quoted(credit.column.name)}; choose how the amount is written`,
        [refOf(single.column, columns), pair],
      );
    if (!reads(debit.column) || !reads(credit.column)) return undefined;
    used.add(debit.column);
    used.add(credit.column);
    const signed = negative(debit.column) || negative(credit.column);
    const empty = debit.column.values.length === 0 && credit.column.values.length === 0;
    const reason = `amount = credit ${quoted(credit.column.name)} - debit ${quoted(debit.column.name)}`;
    if (signed)
      return ask(
        `${reason}? but the debit or credit column holds negative values: would a debit count twice?`,
        [pair],
      );
    return basis(
      empty ? `${reason}; no values in the sample to check` : reason,
      empty ? 'guess' : 'sure',
      pair,
    );
  }
  if (!single) return undefined;
  if (single.tied.length > 0)
    return ask(
      `columns ${[single.column, ...single.tied].map((c) => quoted(c.name)).join(' and ')} are all named like an amount; choose one`,
      [single.column, ...single.tied].map((c) => refOf(c, columns)),
    );
  const column = single.column;
  const ref = refOf(column, columns);
  if (column.values.length > 0 && !reads(column)) return undefined;
  used.add(column);
  const named = signs.filter((s) => s.named);
  const sign = named.length === 1 ? named[0] : signs.length === 1 ? signs[0] : undefined;
  if (named.length > 1 || (named.length === 0 && signs.length > 1))
    return ask(
      `several columns hold sign markers (${signs.map((s) => quoted(s.column.name)).join(', ')}); which one signs ${quoted(column.name)}?`,
      signs.map((s) => signedAmount(column, s, columns)),
    );
  if (sign) {
    const mapped = signedAmount(column, sign, columns);
    if (negative(column))
      return ask(
        `column ${quoted(column.name)} has negative amounts and ${signReason(sign)}: which one gives the sign?`,
        [ref, mapped],
      );
    used.add(sign.column);
    return basis(`column ${quoted(column.name)}, ${signReason(sign)}`, sign.named ? 'sure' : 'guess', mapped);
  }
  if (column.values.length === 0)
    return guess(
      ref,
      `column ${quoted(column.name)} by its name; the sample has no value to check it or its sign`,
    );
  if (negative(column))
    return basis(
      `column ${quoted(column.name)}: its name, all ${column.values.length} values read as amounts, negative ones among them (the sign is in the amount)`,
      'sure',
      ref,
    );
  return guess(
    ref,
    `column ${quoted(column.name)}, but every sampled amount is positive and no sign column was found: if debits are written without a minus, map the sign (docs/feeds.md, {column, sign})`,
  );
}

/** Status words ERPs write, by their normal name (names.ts), and the contract's status they mean. */
const STATUS_WORDS: Readonly<Record<string, InvoiceStatus>> = {
  entwurf: 'DRAFT',
  draft: 'DRAFT',
  offen: 'OPEN',
  open: 'OPEN',
  unbezahlt: 'OPEN',
  unpaid: 'OPEN',
  bezahlt: 'PAID',
  paid: 'PAID',
  beglichen: 'PAID',
  teilbezahlt: 'PARTIALLY_PAID',
  teilweisebezahlt: 'PARTIALLY_PAID',
  partiallypaid: 'PARTIALLY_PAID',
  storniert: 'CANCELED',
  cancelled: 'CANCELED',
  canceled: 'CANCELED',
};

/** An invoice status column, mapped as valueMapOf maps a column of words. */
const statusOf = (column: Column, ref: string | { column: number }): Inferred<FieldMapping> =>
  valueMapOf(column, ref, { noun: ['status', 'statuses'], values: INVOICE_STATUSES, words: STATUS_WORDS });
