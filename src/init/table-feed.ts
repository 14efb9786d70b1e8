import type { FeedInference } from './feed-shape.js';
import type { TableInference } from './infer-table.js';

/** What a table's inference tells that belongs to no one setting: grouping, each date column's formats. */
export function tableNotes(table: Pick<TableInference, 'thousands' | 'dateColumns'>): string[] {
  return [
    ...(table.thousands.value
      ? [`thousands grouping "${table.thousands.value}": ${table.thousands.reason}`]
      : []),
    ...table.dateColumns.map(
      ({ column, formats }) =>
        `column "${column}": dates fit ${formats.length ? formats.join(', ') : 'no known format'}`,
    ),
  ];
}

/** A tabular format's feed (workbook, JSON Lines, DATEV): its own source keys, the table's mapping. */
export function feedOfTable(
  parts: Pick<FeedInference, 'sample' | 'format' | 'source'> & { notes?: readonly string[] },
  table: TableInference,
): FeedInference {
  return {
    sample: parts.sample,
    format: parts.format,
    source: parts.source,
    kind: table.kind,
    mapping: table.mapping,
    ...(table.exclude ? { exclude: table.exclude } : {}),
    missing: table.missing,
    identity: table.identity,
    notes: [...(parts.notes ?? []), ...tableNotes(table)],
  };
}
