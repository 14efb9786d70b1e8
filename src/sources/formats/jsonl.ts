import * as z from 'zod';
import { readJsonl } from './jsonl-reader.js';
import { textSourceKeys } from './shared-keys.js';
import type { FormatReading, SourceFormat } from './source-format.js';

/** A JSON Lines source has the shared keys only: no header, preamble or quoting to describe. */
export const JsonlSource = z.strictObject({
  format: z.literal('jsonl'),
  ...textSourceKeys,
  /**
   * Largest line in bytes (UTF-8): a longer one is rejected alone with its line number, without
   * being held, and reading goes on at the next line (docs/reading-exports.md, "Caps").
   */
  maxRowBytes: z
    .int()
    .positive()
    .default(1024 * 1024),
});
export type JsonlSource = z.output<typeof JsonlSource>;

/** JSON Lines have no header: columns are the objects' keys. */
function readJsonlBatches(file: string, text: NodeJS.ReadableStream, source: JsonlSource): FormatReading {
  return {
    columns: Promise.resolve(undefined),
    batches: oneByOne(readJsonl(file, text, source.maxRowBytes)),
  };
}

async function* oneByOne<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const item of items) yield [item];
}

/** JSON Lines: one object per line, keys (dotted for nested objects) are the columns. */
export const jsonlFormat: SourceFormat<typeof JsonlSource> = {
  schema: JsonlSource,
  read: readJsonlBatches,
  position: 'line',
  docs: 'JSON Lines: one object per line is a record; its keys (dotted for nested objects) are the columns',
};
