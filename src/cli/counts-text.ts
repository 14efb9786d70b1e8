import type { RunSummary } from '../sync/report/summary.js';

/** A run's counts as every command prints them: "3 created, 0 updated, … 0 failed". */
export const countsText = (c: RunSummary['counts']): string =>
  `${c.created} created, ${c.updated} updated, ${c.skipped} skipped, ${c.rejected} rejected, ${c.failed} failed`;
