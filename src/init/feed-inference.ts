import type { RecordKind } from '../kinds/registry.js';
import { detectFormat } from './detect.js';
import { decodeSample, undecodedSample } from './encoding.js';
import type { FeedInferenceResult } from './feed-shape.js';
import type { CsvInference, CsvInferenceResult } from './infer-csv.js';
import { inferCsv } from './infer-csv.js';
import { inferDatev } from './infer-datev.js';
import { inferJsonl } from './infer-jsonl.js';
import { inferStatement } from './infer-statement.js';
import { inferXlsx } from './infer-xlsx.js';
import type { Inferred } from './inferred.js';
import type { SampledExport } from './sample.js';
import { tableNotes } from './table-feed.js';

export type { FeedInference, FeedInferenceResult } from './feed-shape.js';

/**
 * Infers a feed from the sample of one export by its format, told by content (detect.ts), never
 * by the file's name: each format through its own reader, given in the one shape FeedInference.
 */
export async function inferFeed(
  sample: SampledExport,
  options: { kind?: RecordKind } = {},
): Promise<FeedInferenceResult> {
  const text = decodeSample(sample) ?? undecodedSample(sample);
  const detected = detectFormat(sample.bytes, text.text, sample.complete);
  if (!detected.ok) return detected;
  const format = detected.format;
  if (format.value === 'xlsx') return inferXlsx(format, sample, options);
  // Delimited text the encodings cannot read is inferCsv's to refuse, with its reason.
  if (format.value === 'csv') return fromCsv(inferCsv(sample, options));
  switch (format.value) {
    case 'camt':
    case 'mt940':
      return inferStatement(format.value, format, sample, text, options);
    case 'datev':
      return inferDatev(format, sample, text, options);
    case 'jsonl':
      return inferJsonl(format, sample, text, options);
    default:
      return fromCsv(inferCsv(sample, options));
  }
}

function fromCsv(result: CsvInferenceResult): FeedInferenceResult {
  if (!result.ok) return result;
  const csv: CsvInference = result.inference;
  const source: [string, Inferred<unknown>][] = [
    ['encoding', csv.encoding],
    ['delimiter', csv.delimiter],
    ['quote', csv.quote],
    ['skipLines', csv.skipLines],
    ...(csv.headerPattern ? [['headerPattern', csv.headerPattern] as [string, Inferred<unknown>]] : []),
    ...(csv.skipRowsMatching
      ? [['skipRowsMatching', csv.skipRowsMatching] as [string, Inferred<unknown>]]
      : []),
    ['skipFooterLines', csv.skipFooterLines],
    ['decimalSeparator', csv.decimalSeparator],
    ['dateFormat', csv.dateFormat],
  ];
  const notes = tableNotes(csv);
  return {
    ok: true,
    inference: {
      sample: csv.sample,
      format: csv.format,
      source,
      kind: csv.kind,
      mapping: csv.mapping,
      ...(csv.exclude ? { exclude: csv.exclude } : {}),
      missing: csv.missing,
      identity: csv.identity,
      notes,
    },
  };
}
