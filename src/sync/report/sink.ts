import type { RecordOutcome } from '../outcome.js';
import type { RunSummary } from './summary.js';

/**
 * Where a run's report goes. The in-process runner writes CSV/NDJSON/JSON files; the fleet
 * stores the same records in Redis. Outcomes arrive in batches (a chunk at a time) and must be
 * durable once `record` resolves: a chunk is acknowledged only after its outcomes are stored.
 */
export interface ReportSink {
  record(outcomes: readonly RecordOutcome[]): Promise<void>;
  finish(summary: RunSummary): Promise<void>;
}
