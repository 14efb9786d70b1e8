import type { RunSummary } from '../sync/report/summary.js';

/**
 * A run's counts as every command prints them: "3 created, 0 updated, … 0 failed". Values set for
 * their period (plans that replace) are named apart: whether the period held them already cannot
 * be told, and "6 created" again on a rerun would read like duplicates.
 */
export function countsText(summary: Pick<RunSummary, 'counts' | 'valuesSet'>): string {
  const c = summary.counts;
  const set = summary.valuesSet ?? 0;
  const created =
    set > 0
      ? `${c.created - set} created, ${set} set for their period (replacing what it held: a rerun sets them again, never twice)`
      : `${c.created} created`;
  return `${created}, ${c.updated} updated, ${c.skipped} skipped, ${c.rejected} rejected, ${c.failed} failed`;
}
