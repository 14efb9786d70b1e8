import type { ReadStatement } from './statement.js';

/** The cells of one result row, as text (undefined for NULL), in the result's column order. */
export type RowCells = (string | undefined)[];

/** How a read is bounded: the rows fetched at a time, the time a statement may take. */
export interface ReadOptions {
  /** Rows fetched from the server at a time, and so the most a batch holds (default 500). */
  readonly batchSize?: number;
  /**
   * The most a statement may run, in milliseconds (default: no limit). PostgreSQL counts each
   * fetch; MySQL and MariaDB count the whole read, consumer's pauses included: size it for that.
   */
  readonly statementTimeoutMs?: number;
  /** The most connecting may take, in milliseconds (default 10 s). */
  readonly connectTimeoutMs?: number;
}

/**
 * One connection of one driver, as the reader uses it. Every failure it throws is a
 * DatabaseError naming the database by its label.
 */
export interface DatabaseSession {
  /**
   * Starts one consistent, read-only snapshot, with the session's time zone (timestamps are
   * printed in it) and the statement timeout.
   */
  begin(timeZone: string): Promise<void>;
  /** The column names of a statement's result, read without a row. */
  columns(text: string): Promise<string[]>;
  /**
   * The statement's rows, at most `batchSize` at a time, fetched only as they are asked for. A
   * read left before its end, or failed, leaves the session unusable: the reader closes it.
   */
  rows(statement: ReadStatement, batchSize: number): AsyncIterable<RowCells[]>;
  /** Ends the snapshot (nothing to commit: it read only). */
  end(): Promise<void>;
  /** Closes the connection, whatever state it is in; never throws. */
  close(): Promise<void>;
}
