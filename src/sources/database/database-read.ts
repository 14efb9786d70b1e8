import type { FormatReading } from '../formats/source-format.js';

/**
 * Issue 29: an ERP's database table (or query) read as a feed's export. This file is the contract
 * between the reading side (connection, snapshot, statement, exact values: src/sources/database/)
 * and the run side (listing, the stored cursor position, outcomes named `table:key`).
 */

/**
 * Where an incremental read stands: the cursor column's and the tie-breaker's values of the last
 * row a run read, as exact text (a timestamp keeps its microseconds, a bigint its digits), in the
 * form the database compares them back (`WHERE (column, tieBreaker) > ($1, $2)`).
 */
export interface CursorPosition {
  readonly column: string;
  readonly tieBreaker?: string;
}

/** What one read of a database source returns: the rows as any export's reading, and where it ended. */
export interface DatabaseReading extends FormatReading {
  /**
   * After `batches` ended: the position of the last row read (in cursor order), or undefined when
   * no row was read or the source has no cursor. The run stores it only once its outcomes are
   * stored; a run that fails reads from the previous position again.
   */
  position(): CursorPosition | undefined;
}
