import { KINDS, type RecordKind } from '../kinds/registry.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import type { RowFilter } from '../sources/row-filter.js';
import type { DecimalSeparator } from '../sources/values/amount.js';
import { balanceRows } from './balance-rows.js';
import { type Column, columnsOf, refOf } from './columns.js';
import { currencyFromNames } from './currency.js';
import { DATE_FORMATS, dateColumns, feedDateFormat, formatsAsWritten } from './dates.js';
import { type IdentityInference, inferIdentity } from './identity.js';
import { ask, type Inferred } from './inferred.js';
import { inferInvoiceType } from './invoice-type.js';
import { inferKind } from './kind.js';
import { bestNamed, inferMapping, NAMED_KINDS } from './mapping.js';
import { CREDIT_NAMES, DEBIT_NAMES } from './names.js';
import { amountColumns, inferNumberStyle } from './numbers.js';
import { inferExclude } from './pending.js';
import { preambleDateFormat, preambleDecimalSeparator } from './preamble.js';
import { signColumns } from './sign.js';

/**
 * A table of text cells, wherever it was read from: a delimited text's header and rows
 * (table.ts), a workbook's sheet, the keys and values of JSON Lines, a DATEV batch's columns.
 */
export interface TableCells {
  header: readonly string[];
  rows: readonly (readonly string[])[];
  /** Lines before the header, as cells (a bank's account and period lines); may be empty. */
  preamble: readonly (readonly string[])[];
  /** What joins a row's cells into the text `skipRowsMatching` is matched against. */
  delimiter: string;
}

/** What the cells of a table tell of a feed: values, kind, mapping and identity. */
export interface TableInference {
  /** The rows that are records (balance and total lines left out). */
  records: number;
  decimalSeparator: Inferred<DecimalSeparator>;
  thousands: Inferred<string>;
  dateFormat: Inferred<string>;
  /** Per date-like column, the formats consistent with every sampled value, as its cells write the year. */
  dateColumns: readonly { column: string; formats: readonly string[] }[];
  kind: Inferred<RecordKind>;
  /** Service field -> how to fill it; externalId is under `identity`. */
  mapping: Readonly<Record<string, Inferred<FieldMapping>>>;
  /** Rows to leave out (`exclude`): pending bookings; absent when none are seen. */
  exclude?: Inferred<RowFilter[]>;
  /** Balance and total lines inside the table; absent when none are seen. */
  skipRowsMatching?: Inferred<string[]>;
  /** The kind's required fields no column was found for. */
  missing: readonly string[];
  identity: IdentityInference;
}

/**
 * Infers from a table's cells what every tabular format shares: the number and date style, the
 * kind, the mapping and the identity. Each format's own settings (a CSV's delimiter, a
 * workbook's sheet) are the caller's.
 */
export function inferTable(
  table: TableCells,
  options: {
    kind?: RecordKind;
    /** Fields the format fills itself (DATEV's added cells): they stand for whatever the columns suggest. */
    fixed?: Readonly<Record<string, Inferred<FieldMapping>>>;
  } = {},
): TableInference {
  // Balance and total lines are no records: nothing below reads them.
  const balance = balanceRows(table.rows, table.delimiter);
  const rows = balance.records;
  const columns = columnsOf(table.header, rows);
  const kind = inferKind(columns, options.kind);
  const kindValue = kind.value as RecordKind;
  const fields = KINDS[kindValue].fields;
  /** The name patterns of the kind's fields of one type. */
  const patternsOf = (type: string) =>
    Object.entries(NAMED_KINDS[kindValue] ?? {}).flatMap(([field, patterns]) =>
      fields[field]?.type === type ? [patterns] : [],
    );

  // The date format from the columns named like a date field (else every date-like column).
  const dated = dateColumns(columns);
  const namedDates = dated.filter((d) =>
    patternsOf('date').some((patterns) => bestNamed(columns, patterns)?.column === d.column),
  );
  const dateFormat =
    dated.length === 0
      ? (preambleDateFormat(table.preamble) ??
        ask<string>(
          rows.length === 0
            ? 'the sample has no rows to read dates from'
            : 'no column of dates in the sample',
          DATE_FORMATS,
        ))
      : feedDateFormat(namedDates.length > 0 ? namedDates : dated);

  // The decimal separator from the amount-like columns named like an amount, else all of them.
  const amountish = amountColumns(columns);
  const amountPatterns = [...patternsOf('amount'), DEBIT_NAMES, CREDIT_NAMES];
  const preferred = amountish.filter((c) => amountPatterns.some((p) => bestNamed([c], p) !== undefined));
  const fromRows = inferNumberStyle(amountish, preferred);
  const fromPreamble =
    fromRows.decimalSeparator.certainty === 'guess' ? preambleDecimalSeparator(table.preamble) : undefined;
  const numbers = fromPreamble ? { ...fromRows, decimalSeparator: fromPreamble } : fromRows;

  const signs = signColumns(columns);
  const { mapping, used } = inferMapping(
    kindValue,
    columns,
    { decimalSeparator: numbers.decimalSeparator, dateFormat },
    signs,
  );
  if (kindValue === 'transactions' && !mapping.currency) {
    const currency = currencyFromNames(columns);
    if (currency) mapping.currency = currency;
  }
  if (kindValue === 'invoices' && !mapping.invoiceType) {
    const contact = mapping.contactName?.value;
    const column = typeof contact === 'string' ? columns.find((c) => c.name === contact) : undefined;
    mapping.invoiceType = inferInvoiceType(columns, column, used);
  }
  Object.assign(mapping, options.fixed);
  const required = Object.entries(fields).flatMap(([field, spec]) => (spec.required ? [field] : []));
  const missing = required.filter((f) => f !== 'externalId' && mapping[f]?.value === undefined);
  // What the person picks from: the columns whose values could be the field (all, for text).
  const fitting = (field: string): Column[] => {
    const type = fields[field]?.type;
    const pool = type === 'date' ? dated.map((d) => d.column) : type === 'amount' ? amountish : columns;
    return pool.filter((c) => c.name !== '');
  };
  for (const field of missing)
    mapping[field] ??= ask(
      `no column named like ${field} whose values fit: choose the column`,
      fitting(field).map((c) => refOf(c, columns)),
    );

  // Dates, amounts and signs are never IDs, even when unique in the sample; a mapped text column
  // may be one (an invoice number).
  const notIds = new Set<Column>([
    ...dated.map((d) => d.column),
    ...amountish.filter((c) => used.has(c)),
    ...signs.map((s) => s.column),
  ]);
  // The fields the derived identity is built from are those the mapping fills (not those asked).
  const filled = Object.keys(mapping).filter((field) => mapping[field]?.value !== undefined);
  const identity = inferIdentity(kindValue, columns, rows.length, notIds, filled);
  const exclude = kindValue === 'transactions' ? inferExclude(columns) : undefined;
  return {
    records: rows.length,
    decimalSeparator: numbers.decimalSeparator,
    thousands: numbers.thousands,
    dateFormat,
    dateColumns: dated.map((d) => ({ column: d.column.name, formats: formatsAsWritten(d) })),
    kind,
    mapping,
    missing,
    identity,
    ...(exclude ? { exclude } : {}),
    ...(balance.skipRowsMatching ? { skipRowsMatching: balance.skipRowsMatching } : {}),
  };
}
