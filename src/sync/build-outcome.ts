import { secrets } from '../logging/secret-scrubber.js';
import type { MappedRecord } from '../sources/record.js';
import type { RecordOutcome } from './outcome.js';

/** What a strategy decides about a record; file, line, externalId and amount come from the record. */
export type OutcomeFields = Omit<RecordOutcome, 'file' | 'line' | 'key' | 'externalId' | 'amount'>;

export const outcomeOf = (record: MappedRecord, fields: OutcomeFields): RecordOutcome => ({
  file: record.file,
  line: record.line,
  ...(record.key !== undefined ? { key: record.key } : {}),
  externalId: record.externalId,
  amount: record.amount,
  ...fields,
  // A failure's message may quote a server (a bulk item error, any error's message): no secret in
  // it reaches the report, in any encoding. Only failures pay for the scrub.
  ...(fields.message !== undefined && (fields.outcome === 'failed' || fields.outcome === 'rejected')
    ? { message: secrets.scrub(fields.message) }
    : {}),
});

/** Every record of a batch failed for one reason (a stopped run, a chunk that could not run). */
export const failedAll = (
  records: readonly MappedRecord[],
  why: { code: string; message: string },
): RecordOutcome[] =>
  records.map((record) => outcomeOf(record, { outcome: 'failed', code: why.code, message: why.message }));
