import { KINDS } from '../kinds/registry.js';
import type { SourceFeed } from './feed-view.js';
import type { FieldMapping } from './field-mapping.js';
import type { ColumnRef, MappedColumn } from './row.js';

/** The columns one field's mapping reads, in the order it names them (none for a constant). */
function columnsOf(mapping: FieldMapping): readonly ColumnRef[] {
  if (typeof mapping === 'string') return [mapping];
  if ('const' in mapping) return [];
  if ('columns' in mapping) return mapping.columns;
  if ('debit' in mapping) return [mapping.debit, mapping.credit];
  if ('sign' in mapping) return [mapping.column, mapping.sign.column];
  return [mapping.column];
}

/** Every column the feed's mapping reads, field by field in the kind's order. */
export function mappedColumns(feed: SourceFeed): MappedColumn[] {
  return Object.entries(KINDS[feed.kind].fields).flatMap(([field, spec]) => {
    const mapping = feed.mapping[field];
    return mapping === undefined ? [] : columnsOf(mapping).map((ref) => ({ ref, field, type: spec.type }));
  });
}
