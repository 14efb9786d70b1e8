import * as z from 'zod';
import type { RecordKind } from '../../kinds/registry.js';
import { databaseLabel } from '../database/database-settings.js';
import { DATABASE_TYPES, databaseFormat } from '../database/database-source.js';
import type { FieldMappings } from '../field-mapping.js';
import type { MappedColumn } from '../row.js';
import { camtFormat } from './camt.js';
import { csvFormat } from './csv.js';
import { datevFormat } from './datev.js';
import { jsonlFormat } from './jsonl.js';
import { mt940Format } from './mt940.js';
import type {
  ByteInput,
  BytesReader,
  DefaultMapping,
  FormatReader,
  FormatReading,
  PositionUnit,
  RawTextReader,
  RouteCells,
} from './source-format.js';
import { xlsxFormat } from './xlsx.js';

/** Every source format, by its `source.format` value: one line each. */
export const SOURCE_FORMATS = {
  csv: csvFormat,
  jsonl: jsonlFormat,
  mt940: mt940Format,
  camt: camtFormat,
  datev: datevFormat,
  xlsx: xlsxFormat,
  /** Not a file format: a database location's table or query (the YAML names no format). */
  database: databaseFormat,
};

/**
 * A source whose location is a database has no `format` key (issue 29's YAML): it is filed under
 * `database`, so the union below checks it against the database keys and says what they are.
 */
function withDatabaseFormat(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || 'format' in value) return value;
  const location: unknown = (value as { location?: unknown }).location;
  const type =
    typeof location === 'object' && location !== null ? (location as { type?: unknown }).type : undefined;
  return typeof type === 'string' && DATABASE_TYPES.includes(type) ? { ...value, format: 'database' } : value;
}

function nonEmpty<T>(items: readonly T[]): [T, ...T[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error('no source format registered');
  return [first, ...rest];
}

/** A feed's `source`: the keys of its `format`, and only those (a csv key on a jsonl feed is an error). */
const SourceUnion = z.discriminatedUnion(
  'format',
  nonEmpty(Object.values(SOURCE_FORMATS).map((f) => f.schema)),
  {
    // Worded like any other choice of a feed key, listing the formats there are.
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `Invalid option: expected one of ${Object.keys(SOURCE_FORMATS)
            .map((name) => JSON.stringify(name))
            .join(
              '|',
            )} ("database" is given by a database location, type postgres or mysql, with table or query)`
        : undefined,
  },
);
/**
 * The input type is the union's (a database source's input names `format: database`, which the
 * YAML may leave out): the preprocess takes anything, but what it passes on is checked as the union.
 */
export const Source = z.preprocess(withDatabaseFormat, SourceUnion) as unknown as z.ZodType<
  z.output<typeof SourceUnion>,
  z.input<typeof SourceUnion>
>;
export type Source = z.output<typeof Source>;
export type SourceFormatName = Source['format'];
type SourceOf<F extends SourceFormatName> = Extract<Source, { format: F }>;

/**
 * The registry seen per format name. The annotation is the check that each entry is filed under
 * its own `format` value: a reader filed under another name does not accept that name's source.
 */
const BY_NAME: { [F in SourceFormatName]: Entry<SourceOf<F>> } = SOURCE_FORMATS;

type Entry<S> = {
  position: PositionUnit;
  defaultMapping?: DefaultMapping;
  routeCells?: RouteCells;
  fixedDates?: true;
  leastContent?: (mapped: string) => string;
} & (
  | { input?: 'text'; read: FormatReader<S> }
  | { input: 'bytes'; read: BytesReader<S>; rawText?: RawTextReader<S> }
  | { input: 'database' }
);

/** Whether the format's reader writes every date from a fixed layout (no `dateFormat` to contradict). */
export function hasFixedDates(format: SourceFormatName): boolean {
  return BY_NAME[format].fixedDates === true;
}

/** What the least file of the format holds (source-format.ts), or undefined: an empty file is an export. */
export function leastContentOf(format: SourceFormatName): ((mapped: string) => string) | undefined {
  return BY_NAME[format].leastContent;
}

/**
 * Whether the format reads decoded text (encoding pass, strict decode) or the raw file, or is no
 * file at all (a database source's rows).
 */
export function inputOf(format: SourceFormatName): 'text' | 'bytes' | 'database' {
  return BY_NAME[format].input ?? 'text';
}

/** Reads one file's decoded text with the reader of its source's format (a text format). */
export function readSource<F extends SourceFormatName>(
  format: F,
  source: SourceOf<F>,
  file: string,
  text: NodeJS.ReadableStream,
  mapped: readonly MappedColumn[] = [],
): FormatReading {
  const entry: Entry<SourceOf<F>> = BY_NAME[format];
  if (entry.input === 'database') throw new Error(`the ${format} source reads no file`);
  if (entry.input === 'bytes') throw new Error(`the ${format} format reads the file's bytes, not text`);
  return entry.read(file, text, source, mapped);
}

/** A binary format's file as stored text (a workbook's XML parts), when the format can give it. */
export function rawTextOf<F extends SourceFormatName>(
  format: F,
  source: SourceOf<F>,
  file: string,
  bytes: ByteInput,
): AsyncIterable<string> | undefined {
  const entry: Entry<SourceOf<F>> = BY_NAME[format];
  return entry.input === 'bytes' ? entry.rawText?.(file, bytes, source) : undefined;
}

/** Reads one file's bytes, undecoded, with the reader of its source's format (a binary format). */
export function readSourceBytes<F extends SourceFormatName>(
  format: F,
  source: SourceOf<F>,
  file: string,
  bytes: ByteInput,
  mapped: readonly MappedColumn[] = [],
): FormatReading {
  const entry: Entry<SourceOf<F>> = BY_NAME[format];
  if (entry.input === 'database') throw new Error(`the ${format} source reads no file`);
  if (entry.input !== 'bytes') throw new Error(`the ${format} format reads decoded text, not bytes`);
  return entry.read(file, bytes, source, mapped);
}

/** What a record's position counts for this format ("line" for the text formats). */
export function positionOf(format: SourceFormatName): PositionUnit {
  return BY_NAME[format].position;
}

/** The mapping the format brings for a kind (a feed of it may leave `mapping` out), if any. */
export function defaultMappingOf(
  format: SourceFormatName,
  kind: RecordKind,
): Readonly<FieldMappings> | undefined {
  const defaults = BY_NAME[format].defaultMapping;
  return defaults?.kind === kind ? defaults.mapping : undefined;
}

/** The cells that name a row's statement account (bank formats), if the format has them. */
export function routeCellsOf(format: SourceFormatName): RouteCells | undefined {
  return BY_NAME[format].routeCells;
}

/** A source of export files (every format but a database's). */
export type FileSource = Exclude<Source, { format: 'database' }>;
/** A database source (issue 29): a table or query, no files. */
export type DatabaseSourceOf = Extract<Source, { format: 'database' }>;

/** Whether the feed reads a database's table or query rather than export files. */
export function isDatabaseSource(source: Source): source is DatabaseSourceOf {
  return source.format === 'database';
}

/**
 * The source's file keys, where only a feed of export files gets (its location opened, its glob
 * listed): every command takes a database feed its own way before (withFeedSource, the fleet's
 * producer and import job), so one here is a bug, said as such.
 */
export function fileSourceOf(source: Source): FileSource {
  if (isDatabaseSource(source))
    throw new Error(
      `a database source (${source.location.type}, ${databaseLabel(source)}) reached code for export files: its caller must take the database's way first`,
    );
  return source;
}
