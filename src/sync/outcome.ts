import type { RecordProblem } from '../sources/record.js';

/** What became of one source record. */
export const OUTCOMES = ['created', 'updated', 'skipped', 'rejected', 'failed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * One line of a run's report: a source record, traced to file and line, and its outcome.
 * - created/updated: the service holds it now (`serviceId` when the service told us)
 * - skipped: already there unchanged, or left out by a feed rule (`message` says which)
 * - rejected: a data problem the user must fix in the source (never sent, or refused with 400)
 * - failed: a transient or service-side problem; a later run may succeed
 */
export interface RecordOutcome {
  file: string;
  line: number;
  /** A database row's key (SourceRow.key): the row is `file:key` (table:key), not `file:line`. */
  key?: string;
  externalId?: string;
  outcome: Outcome;
  serviceId?: number;
  code?: string;
  message?: string;
  /**
   * A row the mapper rejected: the problems `message` is made of, each with the mapped field it
   * concerns, as `check` counts them per field. The report files write the message only.
   */
  problems?: readonly RecordProblem[];
  /** Exact decimal amount, for control totals. */
  amount?: string;
  /**
   * Created by setting its period's value (plans with replaceCurrentValuesForThePeriod): whether the
   * period held it already cannot be told, and a rerun sets it again rather than adding it twice.
   */
  valueSet?: true;
}

/**
 * Outcomes as a run keeps them (the report files, the fleet's stored batches): without the mapper's
 * `problems`, which only `check` reads while the run goes on, so both runners keep the same lines.
 */
export function keptOutcomes(outcomes: readonly RecordOutcome[]): readonly RecordOutcome[] {
  if (!outcomes.some((outcome) => outcome.problems !== undefined)) return outcomes;
  return outcomes.map((outcome) => {
    if (outcome.problems === undefined) return outcome;
    const { problems: _, ...kept } = outcome;
    return kept;
  });
}

/**
 * Where a record or outcome came from, as messages and screens say it: `file:line`, or for a
 * database row `table:key` (its line is only its ordinal in one read).
 */
export function placeOf(at: { file: string; line: number; key?: string | undefined }): string {
  return `${at.file}:${at.key ?? at.line}`;
}
