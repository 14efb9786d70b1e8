import type { Booking } from './booking.js';
import type { StatementAccount } from './statement-account.js';

export type { StatementAccount };

/**
 * A source record ready to sync: validated locally against the contract, traced to file:line. P is
 * its kind's request body (kinds/registry.ts: RecordOf<K>); records of an unknown kind carry unknown.
 */
export interface MappedRecord<P = unknown> {
  file: string;
  line: number;
  /** A database row's key (SourceRow.key): outcomes name the row `file:key`. */
  key?: string;
  externalId: string;
  /** True when the export had no ID and erp-bridge derived one from the content. */
  derivedId: boolean;
  payload: P;
  /** The record's amount as exact decimal text, for control totals. */
  amount?: string;
  /** Bank formats: the statement account whose target the record goes to (absent: the feed's one). */
  route?: StatementAccount;
  /** Bank formats: the booking the record is (part of), claimed once per run and in the service. */
  booking?: Booking;
}

/**
 * One thing wrong with a row the mapper rejects: the mapped field it concerns (none: the row's as
 * a whole, e.g. a statement account no target is known for) and what, as the message says it.
 */
export interface RecordProblem {
  field?: string;
  message: string;
}

/** A source record that never leaves the process: why, and where. */
export interface RejectedRecord {
  file: string;
  line: number;
  /** A database row's key (SourceRow.key): outcomes name the row `file:key`. */
  key?: string;
  externalId?: string;
  code: 'INVALID_RECORD' | 'UNREADABLE_ROW' | 'UNKNOWN_ACCOUNT';
  /** For people and the report files: the problems' messages joined by "; ". */
  message: string;
  /** The mapper's rejections: the problems the message is made of, each with its field (check counts by them). */
  problems?: readonly RecordProblem[];
  amount?: string;
}

/** A row the feed leaves out on purpose (its `exclude` rules), reported as skipped with the rule. */
export interface ExcludedRecord {
  file: string;
  line: number;
  /** A database row's key (SourceRow.key): outcomes name the row `file:key`. */
  key?: string;
  reason: string;
  /** The row's amount as exact decimal text when it could be read, for control totals. */
  amount?: string;
}

export type MapOutcome<R extends MappedRecord = MappedRecord> =
  | { kind: 'mapped'; record: R }
  | { kind: 'rejected'; record: RejectedRecord }
  | { kind: 'excluded'; record: ExcludedRecord };
