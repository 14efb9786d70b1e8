import type { RunSummary } from '../../sync/report/summary.js';

/** Why a feed is failing; each is an error the operator must act on. */
export const FAILING_KINDS = ['chunk-failed', 'run-stopped', 'rejected-share'] as const;
export type FailingKind = (typeof FAILING_KINDS)[number];
/** A warning: the run read far fewer records than the feed's recent runs did. */
export const DROP_KIND = 'record-count-drop';
/** An alert: the fleet saw no new export of the feed for longer than its source.expectEvery. */
export const STALE_KIND = 'stale';
export type AlertKind = FailingKind | typeof DROP_KIND | typeof STALE_KIND;

export interface Finding<K extends AlertKind = AlertKind> {
  kind: K;
  /** What happened and what the operator does about it. */
  message: string;
  /** A stopped run's code: another cause of the same kind is news (a new alert), not "the same". */
  cause?: string;
}

/**
 * A failing finding as the health stores keep and compare it: its kind, with its cause when it has
 * one ("run-stopped:INVALID_CREDENTIALS"), so a feed stopped by an unreachable auth URL and then
 * by a refused secret is alerted twice, not "still failing the same way".
 */
export const failingState = (finding: Finding<FailingKind>): string =>
  finding.cause ? `${finding.kind}:${finding.cause}` : finding.kind;

const ALERT_WORDS: Record<AlertKind, string> = {
  'chunk-failed': 'records failed',
  'run-stopped': 'run stopped',
  'rejected-share': 'many rows rejected',
  'record-count-drop': 'far fewer records',
  stale: 'no new export',
};

/** A stored alert state in a few words for a page ("run stopped: INVALID_CREDENTIALS"). */
export function alertWords(state: string): string {
  const kind = kindOfState(state);
  const words = (ALERT_WORDS as Record<string, string | undefined>)[kind] ?? kind;
  const cause = state.slice(kind.length + 1);
  return cause ? `${words}: ${cause}` : words;
}

/** The kind of a stored failing state. */
export const kindOfState = (state: string): string => state.split(':')[0] ?? state;

/** The drop rule compares with the median of this many recent runs, once there are enough. */
export const RECENT_RUNS = 5;
export const MIN_RECENT_RUNS = 3;

/** Records the run read from its source files (retry runs: only the lines they retried). */
export const recordsRead = (summary: RunSummary): number =>
  summary.files.reduce((sum, file) => sum + file.records, 0);

const percent = (share: number) => `${Math.round(share * 1000) / 10} %`;

/**
 * What makes a finished run's feed failing, in FAILING_KINDS order; empty when it is healthy.
 * A stopped run reports only its stop: the records it then left failed are a consequence of the
 * stop, not a second problem.
 */
export function failingFindings(summary: RunSummary, rejectedShare: number): Finding<FailingKind>[] {
  const findings: Finding<FailingKind>[] = [];
  const { counts, stopReason } = summary;
  const records = recordsRead(summary);
  // Records with no outcome at all: a fleet chunk job that failed for good (its job retries
  // exhausted), so the run finished without them. They failed as surely as the `failed` ones.
  const outcomes = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const unaccounted = summary.dryRun ? 0 : Math.max(0, records - outcomes);
  const failed = counts.failed + unaccounted;
  if (failed > 0 && !stopReason) {
    const causes = failureCauses(summary);
    findings.push({
      kind: 'chunk-failed',
      message: `${failed} records failed ${causes ? `(${causes}` : 'after every retry (service errors or lost answers'}${unaccounted > 0 ? `; ${unaccounted} of them have no outcome because their chunk job failed for good, see the worker's log` : ''}); they are retried by the feed's next run, and nothing is created twice. If they keep failing, check the service's status and the run's report`,
    });
  }
  if (stopReason)
    findings.push({
      kind: 'run-stopped',
      message: `the run stopped with ${stopReason.code}: ${stopReason.message}`,
      cause: stopReason.code,
    });
  if (records > 0 && counts.rejected / records > rejectedShare)
    findings.push({
      kind: 'rejected-share',
      message: `${counts.rejected} of ${records} records (${percent(counts.rejected / records)}) were rejected, more than ${percent(rejectedShare)}: fix the rows the run's report names (line, column, what was expected); when most rows are refused, the export's layout or the feed's mapping has probably changed`,
    });
  return findings;
}

/**
 * What the run's first failed records say, one per code ("MAX_USERS_REACHED: not sent, account …
 * has no user slot left: …"): a failure is not always a service error after every retry (an
 * account's user limit, an interrupt), and the alert says which. Undefined when none is known.
 */
function failureCauses(summary: RunSummary): string | undefined {
  const byCode = new Map<string, string>();
  for (const o of summary.firstErrors)
    if (o.outcome === 'failed' && o.code && !byCode.has(o.code)) byCode.set(o.code, o.message ?? '');
  if (byCode.size === 0) return undefined;
  return [...byCode].map(([code, message]) => (message ? `${code}: ${message}` : code)).join('; ');
}

/** The median of the feed's last RECENT_RUNS counted runs, or undefined with fewer than MIN_RECENT_RUNS. */
export function recentMedian(recent: readonly number[]): number | undefined {
  const window = recent.slice(0, RECENT_RUNS);
  if (window.length < MIN_RECENT_RUNS) return undefined;
  const sorted = [...window].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/**
 * A warning when `records` is below `dropShare` times the median of the feed's recent record
 * counts (newest first): an export cut short, or an ERP that stopped exporting some of its data.
 */
export function recordCountDrop(
  records: number,
  recent: readonly number[],
  dropShare: number,
): Finding<typeof DROP_KIND> | undefined {
  const median = recentMedian(recent);
  if (median === undefined || records >= dropShare * median) return undefined;
  return {
    kind: DROP_KIND,
    message: `the run read ${records} records, less than ${percent(dropShare)} of the median of the feed's last ${Math.min(recent.length, RECENT_RUNS)} runs (${median}): check that the ERP export is complete before its records are missed`,
  };
}
