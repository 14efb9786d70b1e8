import type { RecordKind } from '../kinds/registry.js';
import type { RecordOf } from '../sources/record-of.js';
import type { CursorPosition } from './database/database-read.js';
import { dateFormatCheck } from './date-format-check.js';
import { type CheckedText, openCheckedText } from './decode.js';
import { blankSize, emptyFileStop } from './empty-file.js';
import type { SourceFeed } from './feed-view.js';
import { SourceLayoutError } from './field-plan.js';
import { EncodingError, FileStopError } from './file-stop.js';
import { type FormatReport, formatReport } from './format-report.js';
import { inputOf, leastContentOf, readSource, readSourceBytes } from './formats/registry.js';
import type { FormatReading } from './formats/source-format.js';
import { asExportFile, type ExportFile } from './locations/export-file.js';
import { mappedColumns } from './mapped-columns.js';
import { compileMapper, type RecordMapper } from './mapper.js';
import { fileSha256, openBytes } from './raw-file.js';
import type { MapOutcome, MappedRecord } from './record.js';
import { type Columns, namedColumns, type SourceItem } from './row.js';
import type { FileEncoding } from './text-encoding.js';

/** R: the records' type, RecordOf<K> for a feed of kind K. */
export interface RecordStream<R extends MappedRecord = MappedRecord> {
  /** The file's name in reports: its path, or for a remote location its label and path. */
  file: string;
  /**
   * One outcome per data row, in file order: mapped, rejected (with reason) or excluded; a batch
   * at a time (what the reader had ready), so a million rows are not a million asynchronous steps.
   */
  batches: AsyncIterable<readonly MapOutcome<R>[]>;
  /** sha256 of the file, known once `batches` has been read to the end. */
  sha256: Promise<string>;
  /**
   * Why the feed's mapping does not fit this file's header (a mapped column missing, a column
   * named twice), once a batch has shown it or, for a header without rows, once `batches` ended:
   * the file stops (exit 2), its rows are all rejected.
   */
  layoutProblem?(): string | undefined;
  /**
   * What the format's reading reports of the file besides its records (bank statement formats:
   * its statements), once `batches` ended; `fileStopped`: the file was not read as configured.
   */
  report(fileStopped: boolean): FormatReport;
  /** The encoding the file was read with (undefined when it could not be decoded). */
  encoding: Promise<FileEncoding | undefined>;
  /** Workbook formats: the sheet read, once `batches` has been read. */
  sheet(): string | undefined;
  /**
   * Bytes of the file consumed so far, for progress: whatever the format, the file's bytes (not
   * decoded characters), read a chunk ahead of the rows handed out (CheckedText.bytesRead).
   */
  bytesRead(): number;
  /**
   * A database read (src/sync/run/database-run.ts): the cursor range it covered, `to` known once
   * `batches` ended. Absent for a file.
   */
  cursor?(): { from?: CursorPosition; to?: CursorPosition };
}

/**
 * Streams an export file (a local path, or a file of any location) as mapped records. Nothing is
 * dropped silently: a row that cannot be read becomes a rejection (UNREADABLE_ROW), and when the mapping does not fit the file's header
 * every row is rejected with that reason, so the report still accounts for each line, and
 * `layoutProblem` tells the import to stop (importFile).
 */
export function openRecords<K extends RecordKind>(
  feed: SourceFeed<K>,
  given: string | ExportFile,
): RecordStream<RecordOf<K>> {
  const source = asExportFile(given);
  const file = source.name;
  const columnsRead = mappedColumns(feed);
  const sha256 = deferred<string>();
  const encoding = deferred<FileEncoding | undefined>();
  // The reader starts when `batches` is first read: the encoding is checked (a pass over the
  // bytes) before the first row, and a file that cannot be decoded throws its EncodingError
  // (a FileStopError) from `batches` before any record exists.
  let checked: Pick<CheckedText, 'bytesRead'> | undefined;
  async function* read(): AsyncGenerator<readonly SourceItem[]> {
    const dates = dateFormatCheck(feed);
    if (inputOf(feed.source.format) === 'bytes') {
      // A binary format reads the file itself: nothing to decode, so no encoding to report.
      const contradicted = await dates?.checkBytes(source);
      if (contradicted) {
        encoding.resolve(undefined);
        await fileSha256(source).then(sha256.resolve, sha256.reject);
        throw contradicted;
      }
      const raw = openBytes(source);
      checked = raw;
      encoding.resolve(undefined);
      raw.sha256.then(sha256.resolve, sha256.reject);
      const reading = readSourceBytes(feed.source.format, feed.source, file, raw.input, columnsRead);
      columns = reading.columns;
      statements = reading.statements;
      sheet = reading.sheet;
      yield* reading.batches;
      return;
    }
    // A text format spreads textSourceKeys (source-format.ts): its source always has `encoding`.
    if (!('encoding' in feed.source)) throw new Error('a text format without an encoding key');
    let opened: CheckedText;
    try {
      opened = await openCheckedText(source, feed.source.encoding, undefined, dates?.watch);
    } catch (error) {
      encoding.resolve(undefined);
      // A stopped file is still listed in the summary with the fingerprint of what was refused.
      if (error instanceof EncodingError) await fileSha256(source).then(sha256.resolve, sha256.reject);
      else sha256.reject(error);
      throw error;
    }
    checked = opened;
    encoding.resolve(opened.encoding);
    // A declared date format the file contradicts: stopped before its first record. The decode
    // has begun reading (a file handle, or a connection for a remote file): closed when stopped.
    const contradicted = await dates?.check(source, opened.encoding).catch((error: unknown) => {
      opened.text.destroy();
      throw error;
    });
    if (contradicted) {
      opened.text.destroy();
      await fileSha256(source).then(sha256.resolve, sha256.reject);
      throw contradicted;
    }
    opened.sha256.then(sha256.resolve, sha256.reject);
    const reading = readSource(feed.source.format, feed.source, file, opened.text, columnsRead);
    columns = reading.columns;
    statements = reading.statements;
    try {
      for await (const batch of reading.batches) {
        // The decoder refused a byte (the file changed since the first pass): the reader's view
        // of the rest is a parse error; what counts is the encoding error.
        const failed = opened.failure();
        if (failed) throw await failed;
        yield batch;
      }
    } catch (error) {
      const changed = await opened.failure();
      if (changed) throw changed;
      // The reader stopped the file part-way (e.g. a delimiter it does not use): the decode is
      // left unread, so the fingerprint of what was refused comes from a pass of its own.
      if (error instanceof FileStopError) fileSha256(source).then(sha256.resolve, sha256.reject);
      throw error;
    }
    const failed = opened.failure();
    if (failed) throw await failed;
  }
  let columns: Promise<Columns | undefined> = Promise.resolve(undefined);
  let statements: FormatReading['statements'];
  let sheet: (() => string | undefined) | undefined;
  const batches = read();

  const least = leastContentOf(feed.source.format);
  /** An empty file (empty-file.ts) under a format whose least file holds something: its stop. */
  const emptyStop = async (): Promise<FileStopError | undefined> => {
    if (!least) return undefined;
    const size = await blankSize(source);
    return size === undefined ? undefined : emptyFileStop(file, size, least(namedColumns(columnsRead)));
  };
  const items = mapItems(feed, file, batches, () => columns);
  async function* mapped(): AsyncGenerator<MapOutcome<RecordOf<K>>[]> {
    // Nothing read at all (no row, no problem): the file may be empty, which is no export. A
    // reader's own stop of an empty file (not a zip, no XML root) gives way to that reason.
    try {
      yield* items.batches;
    } catch (error) {
      if (items.itemsSeen() === 0 && error instanceof FileStopError) throw (await emptyStop()) ?? error;
      throw error;
    }
    if (items.itemsSeen() === 0) {
      const empty = await emptyStop();
      if (empty) throw empty;
    }
  }
  return {
    file,
    batches: mapped(),
    sha256: sha256.promise,
    encoding: encoding.promise,
    layoutProblem: items.layoutProblem,
    report: (fileStopped) => formatReport(statements, fileStopped),
    sheet: () => sheet?.(),
    bytesRead: () => checked?.bytesRead() ?? 0,
  };
}

/**
 * A reader's items as mapped records (the mapping compiled once the header is known): a row that
 * could not be read becomes a rejection (UNREADABLE_ROW), and when the mapping does not fit the
 * header every row is rejected with that reason and `layoutProblem` says it. The mapping of any
 * reading, a file's (openRecords) or a database's (readingRecords).
 */
function mapItems<K extends RecordKind>(
  feed: SourceFeed<K>,
  file: string,
  batches: AsyncIterable<readonly SourceItem[]>,
  columns: () => Promise<Columns | undefined>,
) {
  let layoutProblem: string | undefined;
  let mapper: RecordMapper<RecordOf<K>> | undefined;
  let seen = 0;
  const compile = async () => {
    try {
      mapper = compileMapper(feed, await columns());
    } catch (error) {
      if (!(error instanceof SourceLayoutError)) throw error;
      layoutProblem = `the feed's mapping does not fit this file: ${error.message}`;
    }
  };
  async function* mapped(): AsyncGenerator<MapOutcome<RecordOf<K>>[]> {
    for await (const batch of batches) {
      seen += batch.length;
      const out: MapOutcome<RecordOf<K>>[] = [];
      for (const item of batch) {
        if (item.kind === 'problem') {
          out.push({
            kind: 'rejected',
            record: { file, line: item.problem.line, code: 'UNREADABLE_ROW', message: item.problem.problem },
          });
          continue;
        }
        if (!mapper && layoutProblem === undefined) await compile();
        if (mapper) out.push(mapper(item.row));
        else
          out.push({
            kind: 'rejected',
            record: {
              file,
              line: item.row.line,
              ...(item.row.key !== undefined ? { key: item.row.key } : {}),
              code: 'INVALID_RECORD',
              message: layoutProblem ?? 'unmapped',
            },
          });
      }
      if (out.length > 0) yield out;
    }
    // A header without data rows is still checked against the mapping: some other file given as
    // the export (its one line read as the header) must not pass as an empty export.
    if (!mapper && layoutProblem === undefined && (await columns())) await compile();
  }
  return { batches: mapped(), layoutProblem: () => layoutProblem, itemsSeen: () => seen };
}

/**
 * A reading that is no file's (a database's table or query: src/sync/run/database-run.ts) as
 * mapped records, the same mapping as any export's: nothing to decode, so no encoding and no
 * bytes; `sha256` is what the caller says fingerprints the read.
 */
export function readingRecords<K extends RecordKind>(
  feed: SourceFeed<K>,
  file: string,
  reading: FormatReading,
  sha256: Promise<string>,
): RecordStream<RecordOf<K>> {
  const items = mapItems(feed, file, reading.batches, () => reading.columns);
  return {
    file,
    batches: items.batches,
    sha256,
    encoding: Promise.resolve(undefined),
    layoutProblem: items.layoutProblem,
    report: (fileStopped) => formatReport(reading.statements, fileStopped),
    sheet: () => reading.sheet?.(),
    bytesRead: () => 0,
  };
}

/** A promise settled from outside (a stream's fingerprint, known once its reading ended). */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Callers may never await it (a reader stopped early); that must not crash the process.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * Only the given lines of a file: a fleet retry run (the lines that failed transiently before), or
 * `reconcile --repair` (the records missing in the service or different).
 */
export function onlyLines<R extends MappedRecord>(
  stream: RecordStream<R>,
  lines: ReadonlySet<number>,
): RecordStream<R> {
  async function* filtered() {
    for await (const batch of stream.batches) {
      const wanted = batch.filter((outcome) => lines.has(outcome.record.line));
      if (wanted.length > 0) yield wanted;
    }
  }
  return { ...stream, batches: filtered() };
}

/** The outcomes of a stream one by one (tests, and readers that filter). */
export async function* recordsOf<R extends MappedRecord>(
  stream: RecordStream<R>,
): AsyncGenerator<MapOutcome<R>> {
  for await (const batch of stream.batches) yield* batch;
}
