import { KINDS, type KindChunk, type RecordKind } from '../kinds/registry.js';
import type { ChunkSettings, KindChunkSettings } from './chunk-settings.js';

/**
 * A chunk's settings as its kind takes them: `ofKind` checked by the kind's own `chunk` schema
 * (strict; absent reads as empty), so a kind never reads another kind's part, or a malformed one.
 */
export function kindSettings<K extends RecordKind>(
  kind: K,
  settings: ChunkSettings,
): KindChunkSettings<KindChunk[K]> {
  return { ...settings, ofKind: KINDS[kind].chunk.parse(settings.ofKind ?? {}) };
}
