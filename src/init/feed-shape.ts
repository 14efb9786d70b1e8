import type { RecordKind } from '../kinds/registry.js';
import type { FieldMapping } from '../sources/field-mapping.js';
import type { SourceFormatName } from '../sources/formats/registry.js';
import type { RowFilter } from '../sources/row-filter.js';
import type { IdentityInference } from './identity.js';
import type { Inferred } from './inferred.js';

/**
 * What `erp-bridge init` inferred from one export, whatever its format: what the feed YAML writer
 * turns into a commented feed and the CLI prints. Each format's inference (infer-csv.ts, and the
 * statement, DATEV, workbook and JSON Lines ones) is given in this one shape.
 */
export interface FeedInference {
  /**
   * How much was looked at: the caps and what of them the sample filled. `bytes` were read of the
   * file: its first ones for text, the index and the sheet's beginning for a workbook.
   */
  sample: { bytes: number; rows: number; complete: boolean; rowsCapped: boolean };
  format: Inferred<SourceFormatName>;
  /** The feed's `source` keys besides `path` and `format`, in the order the YAML shows them. */
  source: readonly (readonly [key: string, setting: Inferred<unknown>])[];
  kind: Inferred<RecordKind>;
  /**
   * Service field -> how to fill it (externalId is under `identity`). Empty where the format's
   * default mapping applies (bank statements): the YAML then leaves `mapping` out.
   */
  mapping: Readonly<Record<string, Inferred<FieldMapping>>>;
  /** Rows to leave out (`exclude`): pending bookings; absent when none are seen. */
  exclude?: Inferred<RowFilter[]>;
  /** The kind's required fields no column was found for. */
  missing: readonly string[];
  identity: IdentityInference;
  /** What a person should know that belongs to no one setting (e.g. a column's date formats). */
  notes: readonly string[];
}

export type FeedInferenceResult = { ok: true; inference: FeedInference } | { ok: false; problem: string };
