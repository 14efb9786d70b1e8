import type { Feed } from '../config/feed.js';
import { readCsvBatches } from './csv-reader.js';
import { openText } from './decode.js';
import { SourceLayoutError } from './field-plan.js';
import { readJsonl } from './jsonl-reader.js';
import { compileMapper, type RecordMapper } from './mapper.js';
import type { MapOutcome } from './record.js';
import type { Columns, SourceItem } from './row.js';

export interface RecordStream {
  file: string;
  /**
   * One outcome per data row, in file order: mapped, rejected (with reason) or excluded; a batch
   * at a time (what the reader had ready), so a million rows are not a million asynchronous steps.
   */
  batches: AsyncIterable<readonly MapOutcome[]>;
  /** sha256 of the file, known once `batches` has been read to the end. */
  sha256: Promise<string>;
  /**
   * Why the feed's mapping does not fit this file's header (a mapped column missing, a column
   * named twice), once a batch has shown it: the file stops (exit 2), its rows are all rejected.
   */
  layoutProblem?(): string | undefined;
}

/**
 * Streams an export file as mapped records. Nothing is dropped silently: a row that cannot be
 * read becomes a rejection (UNREADABLE_ROW), and when the mapping does not fit the file's header
 * every row is rejected with that reason, so the report still accounts for each line, and
 * `layoutProblem` tells the import to stop (importFile).
 */
export function openRecords(feed: Feed, file: string): RecordStream {
  const { text, sha256 } = openText(file, feed.source.encoding);
  let batches: AsyncIterable<readonly SourceItem[]>;
  let columns: Promise<Columns | undefined> = Promise.resolve(undefined);
  if (feed.source.format === 'csv') {
    const csv = readCsvBatches(file, text, feed.source);
    batches = csv.batches;
    columns = csv.columns;
  } else {
    batches = oneByOne(readJsonl(file, text));
  }

  let layoutProblem: string | undefined;
  async function* mapped(): AsyncGenerator<MapOutcome[]> {
    let mapper: RecordMapper | undefined;
    for await (const batch of batches) {
      const out: MapOutcome[] = [];
      for (const item of batch) {
        if (item.kind === 'problem') {
          out.push({
            kind: 'rejected',
            record: { file, line: item.problem.line, code: 'UNREADABLE_ROW', message: item.problem.problem },
          });
          continue;
        }
        if (!mapper && layoutProblem === undefined) {
          try {
            mapper = compileMapper(feed, await columns);
          } catch (error) {
            if (!(error instanceof SourceLayoutError)) throw error;
            layoutProblem = `the feed's mapping does not fit this file: ${error.message}`;
          }
        }
        if (mapper) out.push(mapper(item.row));
        else
          out.push({
            kind: 'rejected',
            record: {
              file,
              line: item.row.line,
              code: 'INVALID_RECORD',
              message: layoutProblem ?? 'unmapped',
            },
          });
      }
      if (out.length > 0) yield out;
    }
  }
  return { file, batches: mapped(), sha256, layoutProblem: () => layoutProblem };
}

async function* oneByOne<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const item of items) yield [item];
}

/** The outcomes of a stream one by one (tests, and readers that filter). */
export async function* recordsOf(stream: RecordStream): AsyncGenerator<MapOutcome> {
  for await (const batch of stream.batches) yield* batch;
}
