import type { RunSummary } from './report/summary.js';

/** A feed with source.expectEvery judged by the fleet's scheduler (src/fleet/freshness.ts). */
export interface FreshnessVerdictInput {
  feed: string;
  accountId: number;
  stale: boolean;
  message: string;
}

/** The freshness side of the feed alerts: notified when a feed turns stale, and when fresh again. */
export interface FreshnessAlerts {
  freshness(verdict: FreshnessVerdictInput): Promise<void>;
}

/**
 * What the run finishers (the fleet and `sync`) tell the feed alerts: a port beside the core that
 * calls it, so neither runner imports src/ops (which implements it: ops/alerts/feed-alerts.ts).
 */
export interface RunAlerts {
  /**
   * Judges a finished run and notifies on a change of its feed's state. Dry runs change nothing;
   * retry runs (only the failed lines of a file) change the failing state but neither count as a
   * recent run nor trigger the record-count drop rule.
   */
  runFinished(summary: RunSummary, run?: { retry?: boolean }): Promise<void>;
  /** Flushes the webhook, waiting at most `waitMs` (default: its timeout). */
  close(waitMs?: number): Promise<void>;
}
