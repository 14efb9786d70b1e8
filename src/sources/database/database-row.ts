import { type ColumnRef, type Columns, cellOf, type SourceRow } from '../row.js';
import type { RowCells } from './database-session.js';

/** A database row as any export's row: cells by column name or position, `file` the table (or `query`). */
export class DatabaseRow implements SourceRow {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly key: string | undefined,
    private readonly cells: RowCells,
    private readonly columns: Columns,
  ) {}

  cell(ref: ColumnRef): string | undefined {
    return cellOf(this.cells, this.columns, ref);
  }

  cellAt(index: number): string | undefined {
    return this.cells[index];
  }

  /** The cells tab-separated (NULL as nothing), as a CSV line of the same row reads. */
  text(): string {
    return this.cells.map((cell) => cell ?? '').join('\t');
  }
}
