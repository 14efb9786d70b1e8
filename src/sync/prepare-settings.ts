import type { Feed } from '../config/feed.js';
import { KINDS } from '../kinds/registry.js';
import type { ChunkSettings } from './chunk-settings.js';
import type { ChunkContext } from './ports.js';

/** A feed's write options, what every chunk of it follows. */
export const writeSettings = (feed: Feed): ChunkSettings => ({
  mode: feed.mode,
  emptyCellClears: feed.emptyCellClears,
  mappedFields: Object.keys(feed.mapping),
});

/** Chunk settings of a feed: its write options plus what its kind resolves (`ofKind`: a transactions feed's target account). */
export async function prepareSettings(
  feed: Feed,
  dryRun: boolean,
  ctx: ChunkContext,
): Promise<ChunkSettings> {
  const settings = writeSettings(feed);
  const prepare = KINDS[feed.kind].prepare;
  return prepare ? { ...settings, ofKind: await prepare(feed, dryRun, ctx) } : settings;
}
