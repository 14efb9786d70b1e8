import { KINDS, type RecordKind } from '../kinds/registry.js';
import type { MappedRecord } from '../sources/record.js';
import type { RecordOf } from '../sources/record-of.js';
import { outcomeOf } from './build-outcome.js';
import type { ChunkSettings } from './chunk-settings.js';
import { kindSettings } from './kind-settings.js';
import type { RecordOutcome } from './outcome.js';
import type { ChunkContext } from './ports.js';

/** A dry run's verdict on one chunk: what the real run would leave alone, and what it would send. */
export interface Prediction {
  /**
   * Records the service already holds as they are: the real run would skip them (or reject them,
   * where what it holds says otherwise: a bank booking held in another shape).
   */
  skipped: RecordOutcome[];
  /** Records the real run would create or update. */
  send: MappedRecord[];
}

/**
 * Predicts a chunk with the same read the real run starts with (the kind's `predict`: existence
 * check, lookup by externalId), so `--dry-run` after a full sync predicts skips instead of "3000
 * would be sent". Nothing is written. Kinds without a prediction: every record would be sent.
 */
export async function predictChunk<K extends RecordKind>(
  kind: K,
  records: readonly RecordOf<K>[],
  settings: ChunkSettings,
  ctx: ChunkContext,
): Promise<Prediction> {
  const predict = KINDS[kind].predict;
  const held = predict ? await predict(records, kindSettings(kind, settings), ctx) : () => undefined;
  const skipped: RecordOutcome[] = [];
  const send: MappedRecord[] = [];
  for (const record of records) {
    const verdict = held(record);
    if (verdict) skipped.push(outcomeOf(record, { outcome: 'skipped', ...verdict }));
    else send.push(record);
  }
  return { skipped, send };
}
