import type { WriteMode } from '../config/write-mode.js';

/**
 * What a chunk carries besides its records: the feed's write options, and what its kind resolved
 * for it (`ofKind`, the kind's own data: a transactions feed's target bank account; absent when the
 * kind resolves nothing). Generic code carries `ofKind` unread; the kind's `chunk` schema checks it
 * where the kind gets it (KindChunkSettings).
 */
export interface ChunkSettings {
  mode: WriteMode;
  emptyCellClears: boolean;
  /** Service fields the feed maps (an empty cell may clear only a mapped field). */
  mappedFields: string[];
  ofKind?: unknown;
}

/** The settings a kind's strategy gets: its own part checked by its `chunk` schema, typed C. */
export type KindChunkSettings<C> = Omit<ChunkSettings, 'ofKind'> & { ofKind: C };
