import type { FeedInference } from './feed-inference.js';
import { shortMapping, yamlValue } from './feed-yaml.js';
import type { Certainty, Inferred } from './inferred.js';

export interface InferredRow {
  key: string;
  /** The value as the feed file writes it; `?` when init asks. */
  value: string;
  certainty: Certainty;
  reason: string;
}

const rowOf = (key: string, setting: Inferred<unknown>): InferredRow => ({
  key,
  value: setting.certainty === 'ask' || setting.value === undefined ? '?' : yamlValue(setting.value),
  certainty: setting.certainty,
  reason: setting.reason.replace(/\s+/g, ' ').trim(),
});

/** Every inferred setting in the feed file's order, one row each (what `erp-bridge init` prints). */
export function inferredRows(inference: FeedInference): InferredRow[] {
  const { externalId } = inference.identity;
  return [
    rowOf('kind', inference.kind),
    rowOf('source.format', inference.format),
    ...inference.source.map(([key, setting]) => rowOf(`source.${key}`, setting)),
    {
      ...rowOf('mapping.externalId', externalId),
      ...(externalId.value === null ? { value: '(derived identity)' } : {}),
    },
    ...Object.entries(inference.mapping).map(([field, setting]) =>
      rowOf(`mapping.${field}`, { ...setting, value: shortMapping(setting.value) }),
    ),
    ...(inference.exclude ? [rowOf('exclude', inference.exclude)] : []),
  ];
}

/** The rows as aligned text lines: key, value, certainty, reason. */
export function inferredText(rows: readonly InferredRow[]): string[] {
  const keyWidth = Math.max(...rows.map((r) => r.key.length));
  const valueWidth = Math.min(40, Math.max(...rows.map((r) => r.value.length)));
  return rows.map(
    (r) =>
      `  ${r.key.padEnd(keyWidth)}  ${r.value.padEnd(valueWidth)}  ${r.certainty.padEnd(5)}  ${r.reason}`,
  );
}
