import type { z } from 'zod';
import type { RecordKind } from '../../kinds/registry.js';
import type { FieldMappings } from '../field-mapping.js';
import type { Location } from '../locations/location.js';
import type { Columns, MappedColumn, SourceItem } from '../row.js';
import type { StatementTotals } from './statement-totals.js';

/** What a reader makes of one export: its items in file order, and its header once known. */
export interface FormatReading {
  /** Resolves once the header has been read (undefined for a format or file without one). */
  columns: Promise<Columns | undefined>;
  /** The items in file order, as many at a time as the reader has ready (never an empty batch). */
  batches: AsyncIterable<readonly SourceItem[]>;
  /**
   * Bank statement formats: each statement's booked balances and entries, complete once `batches`
   * has been read to the end (statement-totals.ts).
   */
  statements?: () => readonly StatementTotals[];
  /** Workbook formats: the sheet read (known once the workbook's index was read). */
  sheet?: () => string | undefined;
}

/**
 * Reads the decoded text of one export file with its feed's `source` keys. `mapped`: the columns
 * the feed's mapping reads (none outside a feed), for what a reader says of a header.
 */
export type FormatReader<S> = (
  file: string,
  text: NodeJS.ReadableStream,
  source: S,
  mapped: readonly MappedColumn[],
) => FormatReading;

/**
 * A binary export as a bytes format gets it: the file itself, neither inspected for an encoding
 * nor decoded (a zip container needs random access, so it is a path and its location's ranged
 * reads, not a stream).
 */
export interface ByteInput {
  /** The path as the location names it. */
  readonly path: string;
  readonly location: Location;
  /** The reader adds the bytes it has read from disk: the progress bar counts them. */
  countRead(bytes: number): void;
}

/** Reads one binary export file with its feed's `source` keys (`mapped` as for FormatReader). */
export type BytesReader<S> = (
  file: string,
  input: ByteInput,
  source: S,
  mapped: readonly MappedColumn[],
) => FormatReading;

/** A bytes format's text as stored, in pieces (see BytesFormat.rawText). */
export type RawTextReader<S> = (file: string, input: ByteInput, source: S) => AsyncIterable<string>;

/**
 * What a record's position counts in reports and messages (the report's `line` column holds it):
 * a text format counts physical lines; a spreadsheet would count rows, a statement its entries.
 */
export type PositionUnit = 'line' | 'row' | 'entry';

/**
 * A mapping a format brings for one kind, over its own named cells (a bank statement's entries
 * are transactions whatever the bank): a feed of that kind needs no mapping section, and the
 * fields it does map replace these one by one.
 */
export interface DefaultMapping {
  readonly kind: RecordKind;
  readonly mapping: Readonly<FieldMappings>;
}

/**
 * The cells of a bank format that name the statement a row belongs to: its account (which selects
 * the target bank account, KindDefinition.route) and the account's currency (else the row's own).
 */
export interface RouteCells {
  readonly account: string;
  readonly currency: string;
  /**
   * The cell holding the account only when the statement gives it as an IBAN (camt `Acct/Id/IBAN`);
   * absent: the format does not say (MT940's `:25:` is an IBAN when it reads as one).
   */
  readonly iban?: string;
}

/**
 * The schema of a format's `source` keys: a strict object (a key of another format is refused at
 * load) whose `format` key is the format's name.
 */
export type FormatSchema = z.ZodObject<{ format: z.ZodLiteral<string> } & z.ZodRawShape, z.core.$strict>;

/** What every format entry has, whatever its input. */
interface FormatEntry<Schema extends FormatSchema> {
  /** The format's `source` keys: the shared ones (shared-keys.ts) plus its own, strict. */
  readonly schema: Schema;
  readonly position: PositionUnit;
  /** One line for the docs: what the format is and what a record of it is. */
  readonly docs: string;
  /** The format's mapping for one kind, when its cells are fixed (bank statements). */
  readonly defaultMapping?: DefaultMapping;
  /** Bank formats: the cells that name each row's statement account. */
  readonly routeCells?: RouteCells;
  /**
   * The reader writes every date itself from the format's fixed layout (MT940's YYMMDD, camt's
   * ISO dates, DATEV's DDMM): no declared `dateFormat` to contradict, so no date-format check.
   */
  readonly fixedDates?: true;
  /**
   * What the least file of the format holds, given the mapped columns: said when a file is empty
   * (0 bytes, or only whitespace and a byte-order mark), which is then refused (SOURCE_LAYOUT)
   * rather than read as 0 records. Absent (JSON Lines, one record a line and no header): an
   * empty file is an export with nothing in it.
   */
  readonly leastContent?: (mapped: string) => string;
}

/** leastContent of a format whose export starts with a header naming its columns (on a `line`, a `row`). */
export const headerFirst =
  (unit: 'line' | 'row') =>
  (mapped: string): string =>
    `an export has at least its header ${unit}${mapped === '' ? '' : ` with the mapped columns ${mapped}`}; an ERP with nothing to export writes the header alone`;

/** A format read as text: its schema has `encoding` (textSourceKeys), its reader decoded text. */
export interface TextFormat<Schema extends FormatSchema> extends FormatEntry<Schema> {
  /** Text unless said otherwise: a text format's entry need not name it. */
  readonly input?: 'text';
  /** A property, not a method: its parameter is checked strictly (registry.ts relies on it). */
  readonly read: FormatReader<z.output<Schema>>;
}

/** A binary format (a spreadsheet): no `encoding` key, its reader gets the file undecoded. */
export interface BytesFormat<Schema extends FormatSchema> extends FormatEntry<Schema> {
  readonly input: 'bytes';
  readonly read: BytesReader<z.output<Schema>>;
  /**
   * The file's text as stored, unparsed (a workbook's XML parts, inflated): for a cheap scan
   * before the reader runs. Absent: no such scan, the reader is the only way in.
   */
  readonly rawText?: RawTextReader<z.output<Schema>>;
}

/**
 * A database source (issue 29, src/sources/database/database-source.ts): rows of a table or query,
 * no file, so no reader here: the run opens the database (src/sync/run/database-run.ts) and maps
 * its reading's rows as any export's.
 */
export interface DatabaseFormat<Schema extends FormatSchema> extends FormatEntry<Schema> {
  readonly input: 'database';
}

/**
 * One source format: everything the rest of the bridge knows about it. The registry
 * (registry.ts) lists one per `source.format` value; the feed's `source` is the union of their
 * schemas, and open-records.ts hands a file's decoded text (or, for a bytes format, the file
 * itself) to the format's reader.
 */
export type SourceFormat<Schema extends FormatSchema> = TextFormat<Schema> | BytesFormat<Schema>;
