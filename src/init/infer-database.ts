import type { RecordKind } from '../kinds/registry.js';
import type { DatabaseCursor } from '../sources/database/database-settings.js';
import { isTimestampText } from '../sources/values/date.js';
import type { DatabaseSample } from './database-sample.js';
import type { FeedInference } from './feed-shape.js';
import { inferTable } from './infer-table.js';
import { ask, guess, type Inferred, quoted, sure } from './inferred.js';
import { normalName } from './names.js';
import { feedOfTable } from './table-feed.js';

/** Names of a column that changes whenever its row is written (the cursor's column). */
const CHANGED_NAMES =
  /^(updatedat|changedat|modifiedat|lastmodified|lastchanged|lastupdated|geaendertam|aenderungsdatum|letzteaenderung)$/;
const isChangedName = (name: string): boolean => CHANGED_NAMES.test(normalName(name));

const isTimestampColumn = (values: readonly string[]): boolean =>
  values.some((v) => v !== '') && values.every((v) => v === '' || isTimestampText(v));

/**
 * A database table's (or query's) sample inferred as a table export: the reader's cells are exact
 * text (`.` decimals, `yyyy-MM-dd` dates: fixed for a database feed, so not written), so the table
 * inference gives the kind, mapping and identity. The cursor is guessed from a column named like
 * a change time holding timestamps, with a unique column as its tie-breaker; without both it is
 * left out (every run reads every row).
 */
export function inferDatabase(
  sample: DatabaseSample,
  given: { table?: string; query?: string },
  options: { kind?: RecordKind },
): FeedInference {
  const table = inferTable(
    { header: sample.header, rows: sample.rows, preamble: [], delimiter: '\t' },
    options,
  );
  const values = (index: number) => sample.rows.map((row) => row[index] ?? '');
  const timestamps = sample.header.filter((_, i) => isTimestampColumn(values(i)));
  const cursor = inferCursor(sample, timestamps, table.identity.idColumns, table.identity.externalId.value);
  const named: readonly (readonly [string, Inferred<unknown>])[] =
    given.table !== undefined
      ? [['table', sure(given.table, 'given by --table')]]
      : [['query', sure(given.query, 'given by --query')]];
  return feedOfTable(
    {
      sample: { bytes: 0, rows: table.records, complete: !sample.capped, rowsCapped: sample.capped },
      format: sure('database' as const, 'a database location: no path and no format'),
      source: [...named, ['cursor', cursor]],
      notes: [
        'decimalSeparator "." and dateFormat yyyy-MM-dd are fixed for a database feed: the reader writes every value so',
        ...timestamps.map(
          (column) =>
            `column ${quoted(column)} holds timestamps: a date field mapped to it takes the date part, as the database prints it in the feed's timeZone (UTC unless set)`,
        ),
      ],
    },
    table,
  );
}

function inferCursor(
  sample: DatabaseSample,
  timestamps: readonly string[],
  idColumns: readonly string[],
  externalId: unknown,
): Inferred<DatabaseCursor> {
  const changed = timestamps.find((column) => isChangedName(column));
  const changedNamed = sample.header.find((column) => isChangedName(column));
  const unique = idColumns.filter((c) => c !== changed);
  // `id` first, then the externalId's column, then any column unique in the sample.
  const tieBreaker =
    unique.find((c) => c.toLowerCase() === 'id') ?? unique.find((c) => c === externalId) ?? unique[0];
  if (changed === undefined)
    return ask(
      changedNamed === undefined
        ? 'no column named like updated_at holds timestamps; without a cursor every run reads every row (idempotent)'
        : `column ${quoted(changedNamed)} is named like a change time but does not hold timestamps in the sample; without a cursor every run reads every row (idempotent)`,
      timestamps.map((column) => (tieBreaker ? { column, tieBreaker } : { column })),
    );
  if (tieBreaker === undefined)
    return ask(
      `column ${quoted(changed)} holds change times but no column is unique and filled in every sampled row to break ties; without a cursor every run reads every row (idempotent)`,
      [{ column: changed }],
    );
  return guess(
    { column: changed, tieBreaker },
    `column ${quoted(changed)} is named like a change time and holds timestamps; ${quoted(tieBreaker)} is unique and filled in all ${sample.rows.length} sampled rows (the database must keep ${changed} growing on every write, and ${tieBreaker} unique: docs/databases.md)`,
  );
}
