import { expect } from 'vitest';
import { exitCodeOf } from '../../src/cli/commands/sync-run.js';
import { OUTCOMES, type Outcome, type RecordOutcome } from '../../src/sync/outcome.js';
import { centsToDecimal, decimalToCents, type GeneratedExport } from './generated-exports.js';
import type { HarnessRun, RequestEvent } from './sync-harness.js';

/** Outcomes counted by kind (every kind present, zeros included), as the summary counts them. */
export function countOutcomes(outcomes: readonly RecordOutcome[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const o of outcomes) counts[o.outcome]++;
  return counts;
}

const sumOf = (outcomes: readonly RecordOutcome[]) =>
  centsToDecimal(
    outcomes.reduce((sum, o) => sum + (o.amount === undefined ? 0n : decimalToCents(o.amount)), 0n),
  );

/**
 * The report of a run accounts for its source exactly: every data line once in the outcomes,
 * summary counts equal to the outcome counts, and control totals (records and exact amount per
 * outcome, as decimal text) that add up to the file's own total.
 */
export function expectAccounted(
  run: Pick<HarnessRun, 'summary' | 'outcomes'>,
  source: Pick<GeneratedExport, 'lines' | 'total'>,
): void {
  const { summary, outcomes } = run;
  expect(outcomes.map((o) => o.line).sort((a, b) => a - b)).toEqual(source.lines);
  const counts = countOutcomes(outcomes);
  expect(summary.counts).toEqual(counts);
  for (const outcome of OUTCOMES) {
    const these = outcomes.filter((o) => o.outcome === outcome);
    expect(summary.controlTotals[outcome], outcome).toEqual({
      records: counts[outcome],
      amount: sumOf(these),
    });
  }
  expect(summary.controlTotals.all).toEqual({ records: source.lines.length, amount: source.total });
}

/** No externalId twice among what the service holds. */
export function expectNoDuplicates(stored: readonly { externalId: string | null }[]): void {
  const ids = stored.map((s) => s.externalId);
  const seen = new Set<string | null>();
  const twice = ids.filter((id) => seen.size === seen.add(id).size);
  expect(twice).toEqual([]);
}

/** The lines of the run's outcomes of one kind, sorted. */
export const linesWith = (run: HarnessRun, outcome: Outcome): number[] =>
  run.outcomes
    .filter((o) => o.outcome === outcome)
    .map((o) => o.line)
    .sort((a, b) => a - b);

/** The exit code `erp-bridge sync` gives for this run. */
export const exitCodeOfRun = (run: HarnessRun): number => exitCodeOf([run]);

/**
 * After every 429 the client heard, no request passed the gate before the Retry-After had elapsed
 * on the fake clock (requests already on their way when the 429 came are logged before it).
 */
export function expectNoRequestDuringPauses(events: readonly RequestEvent[]): void {
  events.forEach((event, i) => {
    if (event.kind !== '429') return;
    const resumeAt = event.at + event.retryAfterMs;
    const early = events.slice(i + 1).filter((e) => e.kind === 'request' && e.at < resumeAt);
    expect(
      early,
      `requests during the ${event.retryAfterMs} ms pause after a 429 of ${event.operation}`,
    ).toEqual([]);
  });
}

/**
 * A fleet run sent every record of `source` exactly once: its report accounts for the file
 * (expectAccounted) and the service holds each sent externalId once, none missing, none twice.
 */
export function expectExactlyOnce(
  run: Pick<HarnessRun, 'summary' | 'outcomes'>,
  stored: readonly { externalId: string | null }[],
  source: Pick<GeneratedExport, 'lines' | 'total' | 'externalIds'>,
): void {
  expectAccounted(run, source);
  const prefix = source.externalIds[0]?.replace(/\d+$/, '') ?? '';
  const ours = stored.filter((s) => s.externalId?.startsWith(prefix));
  expectNoDuplicates(ours);
  expect(ours.map((s) => s.externalId).sort()).toEqual([...source.externalIds].sort());
}
