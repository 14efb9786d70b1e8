import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CursorPosition, DatabaseReading } from '../../src/sources/database/database-read.js';
import { columnsFrom, type SourceItem, type SourceRow } from '../../src/sources/row.js';
import type { OpenedDatabase } from '../../src/sync/run/database-run.js';

/** A row of the double's table: column name to its value as exact text. */
export type TableRow = Readonly<Record<string, string>>;

/**
 * A test double of the database READING only (issue 29: the real reader, wip/dbread, is not merged
 * yet): an in-memory table read after a cursor position in (column, tieBreaker) order, as the
 * reading side's contract says (src/sources/database/database-read.ts). Everything else the tests
 * use is real. `rows` may be changed between runs (an update moves a row's cursor column).
 */
export class TableDouble implements OpenedDatabase {
  rows: TableRow[];
  /** Every `after` a read was asked for, in order. */
  readonly reads: (CursorPosition | undefined)[] = [];
  /** Called once a read's rows have all been handed out (before its batches end). */
  onEnd: (() => void) | undefined;
  closed = false;

  constructor(
    readonly label: string,
    rows: readonly TableRow[],
    private readonly cursor: { column: string; tieBreaker: string },
    private readonly batchSize = 2,
  ) {
    this.rows = [...rows];
  }

  read(after?: CursorPosition): DatabaseReading {
    this.reads.push(after);
    const { column, tieBreaker } = this.cursor;
    const order = (row: TableRow): [string, number] => [row[column] ?? '', Number(row[tieBreaker])];
    const compare = (a: [string, number], b: [string, number]) =>
      a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1];
    const from: [string, number] | undefined = after && [after.column, Number(after.tieBreaker)];
    const rows = this.rows
      .filter((row) => !from || compare(order(row), from) > 0)
      .sort((a, b) => compare(order(a), order(b)));
    const names = Object.keys(this.rows[0] ?? {});
    let last: TableRow | undefined;
    const label = this.label;
    const size = this.batchSize;
    const self = this;
    async function* batches(): AsyncGenerator<readonly SourceItem[]> {
      for (let i = 0; i < rows.length; i += size) {
        const batch = rows.slice(i, i + size).map((row, j): SourceItem => {
          const sourceRow: SourceRow = {
            file: label,
            line: i + j + 1,
            key: row[tieBreaker] ?? '',
            cell: (ref) => (typeof ref === 'number' ? row[names[ref - 1] ?? ''] : row[ref]),
            cellAt: (index) => row[names[index] ?? ''],
            text: () => JSON.stringify(row),
          };
          return { kind: 'row', row: sourceRow };
        });
        last = rows[Math.min(i + size, rows.length) - 1];
        yield batch;
      }
      self.onEnd?.();
    }
    return {
      columns: Promise.resolve(columnsFrom(names)),
      batches: batches(),
      position: () =>
        last === undefined ? undefined : { column: last[column] ?? '', tieBreaker: last[tieBreaker] ?? '' },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Rows `ids` of a bookings table; each test's externalIds carry its own prefix (one bank account). */
export function bookings(prefix: string, ids: readonly number[]): TableRow[] {
  return ids.map((id) => ({
    id: String(id),
    ext: `${prefix}-${id}`,
    updated_at: `2026-11-01 10:00:${String(id).padStart(2, '0')}.123456`,
    booked_on: '2026-11-01',
    amount: `${id}.10`,
    memo: `booking ${id}`,
  }));
}

/**
 * A transactions feed of the bookings table `table`, as the issue writes it (no path, no format),
 * in a fresh folder under the system's temp folder (the fleet harness's feed directory).
 */
export function databaseFeedFile(
  name: string,
  table: string,
  type: 'postgres' | 'mysql' = 'postgres',
  /** The target bank account's externalId: a reconcile's scope is that account's transactions. */
  bankAccount = 'db-giro',
): string {
  const feedFile = join(mkdtempSync(join(tmpdir(), 'erp-bridge-db-feed-')), 'feed.yaml');
  writeFileSync(
    feedFile,
    [
      `name: ${name}`,
      'accountId: 1001',
      'kind: transactions',
      'source:',
      `  location: { type: ${type}, urlEnv: ERP_DB_URL }`,
      `  table: ${table}`,
      '  cursor: { column: updated_at, tieBreaker: id }',
      'mapping:',
      '  externalId: ext',
      '  bookingDate: booked_on',
      '  amount: amount',
      '  currency: { const: EUR }',
      '  purpose: memo',
      `bankAccount: { externalId: ${bankAccount}, accountName: Datenbank-Giro, bankName: Testbank }`,
      'concurrency: 1',
      '',
    ].join('\n'),
  );
  return feedFile;
}
