import { type CellFormats, type Converted, convertCell } from './convert.js';
import type { FieldMapping } from './field-mapping.js';
import type { FieldType } from './field-spec.js';
import type { ColumnRef, Columns, SourceRow } from './row.js';
import { addDecimals, negateDecimal } from './values/decimal.js';
import { failed, type Parsed, parsed } from './values/result.js';

/** Reads one service field from a row: a value, nothing (empty cell), or a reason it cannot. */
export type FieldReader = (row: SourceRow) => Parsed<Converted | undefined>;

/** A column the mapping names that the header lacks: what is missing, and the header as it is. */
export interface MissingColumn {
  /** e.g. `mapping.amount: column "Betrag" is not in the header` */
  missing: string;
  header: string;
}

/** A mapping that cannot work with a file's header: the whole file stops with this message. */
export class SourceLayoutError extends Error {
  readonly code = 'SOURCE_LAYOUT';
  constructor(
    message: string,
    /** Set when the error is a mapped column missing from the header (several are told at once). */
    readonly column?: MissingColumn,
  ) {
    super(message);
  }

  /** The same error under a prefix naming where the column was mapped (`mapping.amount: `). */
  within(prefix: string): SourceLayoutError {
    return new SourceLayoutError(
      `${prefix}${this.message}`,
      this.column && { missing: `${prefix}${this.column.missing}`, header: this.column.header },
    );
  }

  /**
   * One error for the problems of one header: every mapped column it lacks named at once, the
   * header shown once after them.
   */
  static all(errors: readonly SourceLayoutError[]): SourceLayoutError | undefined {
    if (errors.length <= 1) return errors[0];
    const columns = errors.flatMap((e) => (e.column ? [e.column] : []));
    if (columns.length === errors.length)
      return new SourceLayoutError(
        `${columns.map((c) => c.missing).join('; ')}; the header has: ${columns[0]?.header}`,
      );
    return new SourceLayoutError(errors.map((e) => e.message).join('; '));
  }
}

const describe = (ref: ColumnRef) => (typeof ref === 'number' ? `column #${ref}` : `column "${ref}"`);

export function checkColumn(ref: ColumnRef, columns: Columns | undefined): void {
  if (!columns) return;
  if (typeof ref === 'string' && columns.duplicated.has(ref)) {
    const positions = columns.names.flatMap((n, i) => (n === ref ? [i + 1] : []));
    throw new SourceLayoutError(
      `${describe(ref)} appears more than once (positions ${positions.join(', ')}); address it by position, e.g. {column: ${positions[0]}}`,
    );
  }
  if (columns.indexOf(ref) === undefined) {
    const missing = `${describe(ref)} is not in the header`;
    const header = columns.names.join(', ');
    throw new SourceLayoutError(`${missing}; the header has: ${header}`, { missing, header });
  }
}

/**
 * Reads one column of each row. With a header the column's position is resolved once here rather
 * than looked up by name in every row (a million rows, several fields each).
 */
export function cellOf(ref: ColumnRef, columns: Columns | undefined): (row: SourceRow) => string | undefined {
  const index = columns?.indexOf(ref);
  if (index === undefined) return (row) => row.cell(ref);
  return (row) => (row.cellAt ? row.cellAt(index) : row.cell(ref));
}

const present = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

function constant(
  value: string | number | boolean | null,
  type: FieldType,
  formats: CellFormats,
): Parsed<Converted | undefined> {
  if (value === null) return parsed(undefined);
  return typeof value === 'string' ? convertCell(type, value, formats) : parsed({ value });
}

/** Control characters (C0, DEL, C1): never part of an id a person typed. */
const CONTROL = /\p{Cc}/u;

/** A cell quoted with every control character visible (JSON leaves C1 and DEL raw). */
function escaped(text: string): string {
  return JSON.stringify(text).replace(
    /\p{Cc}/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Why a source ID cell cannot be an externalId as it stands, or undefined. Trimming or cleaning
 * it would let two different cells ("K-1" and "K-1 ") collide into one record.
 */
function idProblem(text: string): string | undefined {
  if (CONTROL.test(text)) return `contains a control character`;
  if (text !== text.trim()) return `has leading or trailing whitespace`;
  return undefined;
}

/**
 * Compiles one field's mapping against the file's columns (checked once, not per row). A
 * `required` field (the kind's field table) whose cells are empty is refused naming the field and column.
 */
export function fieldReader(
  field: string,
  mapping: FieldMapping,
  type: FieldType,
  columns: Columns | undefined,
  formats: CellFormats,
  required = false,
): FieldReader {
  try {
    return compileField(field, mapping, type, columns, formats, required);
  } catch (error) {
    // Name the mapping entry: "mapping.amount: column "Betrag" is not in the header; ...".
    if (error instanceof SourceLayoutError && !error.message.startsWith(`${field}:`))
      throw error.within(`mapping.${field}: `);
    throw error;
  }
}

function compileField(
  field: string,
  mapping: FieldMapping,
  type: FieldType,
  columns: Columns | undefined,
  formats: CellFormats,
  required: boolean,
): FieldReader {
  const at = (ref: ColumnRef) => `${field} (${describe(ref)})`;
  const withContext = (ref: ColumnRef, result: Parsed<Converted | undefined>) =>
    result.ok ? result : failed(`${at(ref)}: ${result.reason}`);
  const empty = (refs: readonly ColumnRef[]): Parsed<Converted | undefined> =>
    required
      ? failed(`${field} (${refs.map(describe).join(', ')}): required, but the cell is empty`)
      : parsed(undefined);

  if (typeof mapping === 'string' || ('column' in mapping && !('sign' in mapping))) {
    const spec = typeof mapping === 'string' ? { column: mapping } : mapping;
    checkColumn(spec.column, columns);
    const cell = cellOf(spec.column, columns);
    const isId = field === 'externalId';
    return (row) => {
      const text = cell(row);
      const key = text === undefined ? '' : text.trim();
      if (text === undefined || key === '')
        return spec.default === undefined
          ? empty([spec.column])
          : withContext(spec.column, constant(spec.default, type, formats));
      if (isId) {
        const problem = idProblem(text);
        if (problem) return failed(`${at(spec.column)}: ${escaped(text)} ${problem}`);
      }
      if (spec.map && key in spec.map)
        return withContext(spec.column, constant(spec.map[key] ?? null, type, formats));
      return withContext(spec.column, convertCell(type, type === 'string' ? key : text, formats));
    };
  }
  if ('const' in mapping) {
    const value = constant(mapping.const, type, formats);
    if (!value.ok)
      throw new SourceLayoutError(`${field}: constant ${JSON.stringify(mapping.const)}: ${value.reason}`);
    return () => value;
  }
  if ('columns' in mapping) {
    for (const ref of mapping.columns) checkColumn(ref, columns);
    const cells = mapping.columns.map((ref) => cellOf(ref, columns));
    return (row) => {
      const parts = cells.map((cell) => cell(row)?.trim()).filter((t): t is string => !!t);
      if (!parts.length) return empty(mapping.columns);
      const joined = convertCell(type, parts.join(mapping.separator), formats);
      return joined.ok && type === 'string' ? parsed({ ...joined.value, parts }) : joined;
    };
  }
  if (type !== 'amount')
    throw new SourceLayoutError(`${field}: debit/credit and sign columns only fill amount fields`);
  if ('debit' in mapping) {
    checkColumn(mapping.debit, columns);
    checkColumn(mapping.credit, columns);
    const debitCell = cellOf(mapping.debit, columns);
    const creditCell = cellOf(mapping.credit, columns);
    return (row) => {
      const debit = debitCell(row);
      const credit = creditCell(row);
      if (!present(debit) && !present(credit))
        return failed(`${field}: both ${describe(mapping.debit)} and ${describe(mapping.credit)} are empty`);
      let total = '0';
      for (const [ref, text, sign] of [
        [mapping.credit, credit, 1],
        [mapping.debit, debit, -1],
      ] as const) {
        if (!present(text)) continue;
        const amount = convertCell('amount', text, formats);
        if (!amount.ok) return failed(`${at(ref)}: ${amount.reason}`);
        const decimal = amount.value.decimal ?? '0';
        total = addDecimals(total, sign === 1 ? decimal : negateDecimal(decimal.replace(/^-/, '')));
      }
      return parsed({ value: Number(total), decimal: total });
    };
  }
  const { column, sign } = mapping;
  checkColumn(column, columns);
  checkColumn(sign.column, columns);
  const negative = new Set(sign.negative.map((s) => s.toUpperCase()));
  const positive = new Set(sign.positive.map((s) => s.toUpperCase()));
  const amountCell = cellOf(column, columns);
  const signCell = cellOf(sign.column, columns);
  return (row) => {
    const text = amountCell(row);
    if (!present(text)) return empty([column]);
    const amount = convertCell('amount', text, formats);
    if (!amount.ok) return failed(`${at(column)}: ${amount.reason}`);
    const marker = signCell(row)?.trim().toUpperCase() ?? '';
    const decimal = amount.value.decimal ?? '0';
    const magnitude = decimal.startsWith('-') ? decimal.slice(1) : decimal;
    if (negative.has(marker)) return parsed({ value: -Number(magnitude), decimal: negateDecimal(magnitude) });
    if (positive.has(marker)) return parsed({ value: Number(magnitude), decimal: magnitude });
    return failed(
      `${field} (${describe(sign.column)}): sign "${marker}" is neither ${[...negative].join('/')} (negative) nor ${[...positive].join('/')} (positive)`,
    );
  };
}
