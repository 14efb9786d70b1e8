import type { KindFeedOf, RecordKind } from '../kinds/registry.js';
import type { FieldMappings } from './field-mapping.js';
import type { Source } from './formats/registry.js';
import type { RowFilter } from './row-filter.js';

/**
 * A loaded feed as the reading sees it: what it reads and maps (its kind, source, complete mapping,
 * exclude rules, identity scheme) and what it hands the kind (KindFeedOf). src/config/feed.ts's
 * Feed is one; declared here so that the reading does not import the configuration, which
 * composes its schema from the formats.
 */
export type SourceFeed<K extends RecordKind = RecordKind> = KindFeedOf & {
  kind: K;
  source: Source;
  mapping: FieldMappings;
  exclude: readonly RowFilter[];
  identityScheme: 1 | 2;
};
