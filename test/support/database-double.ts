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
