import type { SourceRow } from '../sources/row.js';

/** A reader's rows as text cells under `header` (missing cells empty), what table inference reads. */
export function cellsOf(rows: readonly SourceRow[], header: readonly string[]): string[][] {
  return rows.map((row) => header.map((name, i) => (row.cellAt ? row.cellAt(i) : row.cell(name)) ?? ''));
}
