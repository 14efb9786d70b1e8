import { KINDS, type RecordKind } from '../kinds/registry.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import type { RowFilter } from '../sources/row-filter.js';
import type { TextEncoding } from '../sources/text-encoding.js';
import type { DecimalSeparator } from '../sources/values/amount.js';
import { balanceRows } from './balance-rows.js';
import { type Column, columnsOf, refOf } from './columns.js';
import { currencyFromNames } from './currency.js';
import { DATE_FORMATS, dateColumns, feedDateFormat } from './dates.js';
import { decodeSample } from './encoding.js';
import { type IdentityInference, inferIdentity } from './identity.js';
import { ask, guess, type Inferred, sure } from './inferred.js';
import { inferInvoiceType } from './invoice-type.js';
import { inferKind } from './kind.js';
import { bestNamed, inferMapping, NAMED_KINDS } from './mapping.js';
import { CREDIT_NAMES, DEBIT_NAMES } from './names.js';
import { amountColumns, inferNumberStyle } from './numbers.js';
import { inferExclude } from './pending.js';
import { preambleDateFormat, preambleDecimalSeparator } from './preamble.js';
import type { ExportSample } from './sample.js';
import { signColumns } from './sign.js';
import { findTable } from './table.js';

/** What init inferred from a delimited text export: the feed's `source` keys, kind and mapping. */
export interface CsvInference {
  /** How much was looked at: the caps and what of them the sample filled. */
  sample: { bytes: number; rows: number; complete: boolean; rowsCapped: boolean };
  format: Inferred<'csv'>;
  encoding: Inferred<TextEncoding>;
  delimiter: Inferred<string>;
  quote: Inferred<string>;
  /** Preamble: lines before the header. */
  skipLines: Inferred<number>;
  /** Finds the header whatever the preamble's length (only when there is a preamble). */
  headerPattern?: Inferred<string>;
  skipFooterLines: Inferred<number>;
  /** Balance and total lines inside the table; absent when none are seen. */
  skipRowsMatching?: Inferred<string[]>;
  header: readonly string[];
  decimalSeparator: Inferred<DecimalSeparator>;
  thousands: Inferred<string>;
  dateFormat: Inferred<string>;
  /** Per date-like column, the formats consistent with every sampled value. */
  dateColumns: readonly { column: string; formats: readonly string[] }[];
  kind: Inferred<RecordKind>;
  /** Service field -> how to fill it; externalId is under `identity`. */
  mapping: Readonly<Record<string, Inferred<FieldMapping>>>;
  /** Rows to leave out (`exclude`): pending bookings; absent when none are seen. */
  exclude?: Inferred<RowFilter[]>;
  /** The kind's required fields no column was found for. */
  missing: readonly string[];
  identity: IdentityInference;
}

export type CsvInferenceResult = { ok: true; inference: CsvInference } | { ok: false; problem: string };

/**
 * Infers a CSV feed from the sample of one export (sample.ts: its caps). Pure: bytes in, settings
 * out, each with its certainty and reason (inferred.ts); the YAML writer and the CLI are apart.
 */
export function inferCsv(sample: ExportSample, options: { kind?: RecordKind } = {}): CsvInferenceResult {
  const decoded = decodeSample(sample);
  if (!decoded)
    return { ok: false, problem: 'the export is neither UTF-8, UTF-16 nor Windows-1252: save it as UTF-8' };
  const table = findTable(decoded.text, sample.complete);
  if (!table)
    return {
      ok: false,
      problem: 'no delimited table found (no header of two or more columns with ; , tab or |)',
    };
  // Balance and total lines are no records: nothing below reads them.
  const balance = balanceRows(table.rows, table.delimiter.value ?? ';');
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
    mapping.invoiceType = inferInvoiceType(column);
  }
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
    ok: true,
    inference: {
      sample: {
        bytes: sample.bytes.length,
        rows: rows.length,
        complete: sample.complete,
        rowsCapped: table.rowsCapped,
      },
      format: sure(
        'csv',
        `a delimited table: a header of ${table.header.length} columns${table.rows.length > 0 ? ` and ${table.rows.length} rows of as many` : ''}`,
      ),
      encoding: decoded.encoding,
      delimiter: table.delimiter,
      quote: table.quote,
      skipLines: sure(
        table.skipLines,
        table.skipLines === 0
          ? 'the header is the first line'
          : `the header is line ${table.headerLine}; the lines before it are a preamble`,
      ),
      ...(table.headerPattern === undefined
        ? {}
        : {
            headerPattern: sure(
              table.headerPattern,
              'finds the header even when the preamble has another number of lines',
            ),
          }),
      skipFooterLines:
        table.skipFooterLines > 0
          ? guess(
              table.skipFooterLines,
              `the last ${table.skipFooterLines} line(s) have fewer cells than the header`,
            )
          : sample.complete
            ? sure(0, 'every line after the header is a row')
            : guess(0, 'not looked for: the sample is not the whole file'),
      header: table.header,
      decimalSeparator: numbers.decimalSeparator,
      thousands: numbers.thousands,
      dateFormat,
      dateColumns: dated.map((d) => ({ column: d.column.name, formats: d.formats })),
      kind,
      mapping,
      missing,
      identity,
      ...(exclude ? { exclude } : {}),
      ...(balance.skipRowsMatching ? { skipRowsMatching: balance.skipRowsMatching } : {}),
    },
  };
}
