import { Readable } from 'node:stream';
import type { RecordKind } from '../kinds/registry.js';
import { JsonlSource, jsonlFormat } from '../sources/formats/jsonl.js';
import type { SourceRow } from '../sources/row.js';
import type { DecodedSample } from './encoding.js';
import type { FeedInference, FeedInferenceResult } from './feed-shape.js';
import { inferTable } from './infer-table.js';
import { cellsOf } from './row-cells.js';
import { type ExportSample, wholeLines } from './sample.js';
import { sampleRows, sampleSummary } from './sample-rows.js';
import { feedOfTable } from './table-feed.js';

const SAMPLE_FILE = 'sample';

/**
 * The keys of one object as the JSON Lines reader names its columns: a nested object's keys
 * dotted (`customer.name`); an array is one column (the reader hands it on as JSON text).
 */
function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return prefix ? [prefix] : [];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return prefix ? [prefix] : [];
  return entries.flatMap(([key, inner]) => keysOf(inner, prefix ? `${prefix}.${key}` : key));
}

/** Every key of the sampled objects, in the order first seen: JSON Lines' columns. */
function columnsOf(rows: readonly SourceRow[]): string[] {
  const keys = new Set<string>();
  for (const row of rows) for (const key of keysOf(JSON.parse(row.text()))) keys.add(key);
  return [...keys];
}

/**
 * JSON Lines, read through the JSON Lines reader: the objects' keys are the columns, their values
 * the cells, inferred as a table's (no source keys besides the encoding).
 */
export async function inferJsonl(
  detected: FeedInference['format'],
  sample: ExportSample,
  decoded: DecodedSample,
  options: { kind?: RecordKind },
): Promise<FeedInferenceResult> {
  // JSON Lines is a text format: its reader takes the decoded text.
  if (jsonlFormat.input === 'bytes') return { ok: false, problem: 'JSON Lines is read as text' };
  const reading = jsonlFormat.read(
    SAMPLE_FILE,
    Readable.from([wholeLines(decoded.text, sample.complete)]),
    JsonlSource.parse({ format: 'jsonl', path: SAMPLE_FILE }),
    [],
  );
  const read = await sampleRows(reading);
  const header = columnsOf(read.rows);
  if (header.length === 0) return { ok: false, problem: 'no JSON object with keys in the sample' };
  const table = inferTable(
    { header, rows: cellsOf(read.rows, header), preamble: [], delimiter: '' },
    options,
  );
  return {
    ok: true,
    inference: feedOfTable(
      {
        sample: sampleSummary(sample, read),
        format: detected,
        source: [['encoding', decoded.encoding]],
        notes:
          read.problems.length > 0
            ? [
                `${read.problems.length} line(s) of the sample do not read: ${read.problems[0]?.problem ?? ''}`,
              ]
            : [],
      },
      table,
    ),
  };
}
