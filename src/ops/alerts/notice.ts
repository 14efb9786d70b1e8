import type { Logger } from 'pino';
import type { Outcome } from '../../sync/outcome.js';
import type { Metrics } from '../metrics.js';
import type { AlertKind } from './feed-health.js';

/**
 * A change of a feed's state, as the log line, the metric and the webhook all carry it. This is
 * the webhook's JSON body (README "Alerts"): keep its fields stable.
 */
export interface AlertNotice {
  /** alert: the feed is failing (or fails differently); warning: record count drop; resolved: over. */
  event: 'alert' | 'resolved' | 'warning';
  feed: string;
  /** The customer account (X-Account-Id). */
  tenant: number;
  /** The run that showed the change. */
  runId: string;
  /** alert/warning: the feed's problems now; resolved: the ones that are over. */
  kinds: AlertKind[];
  /** What happened and what the operator does. */
  message: string;
  /** The run's records per outcome. */
  counts: Record<Outcome, number>;
  /** When the notice was raised (ISO 8601, UTC). */
  at: string;
}

const LEVEL = { alert: 'error', warning: 'warn', resolved: 'info' } as const;
const STATE = { alert: 'failing', warning: 'warning', resolved: 'resolved' } as const;

/** Every notice is logged with `alert: true`: errors for alerts, warn for warnings, info when resolved. */
export function logNotice(logger: Logger, notice: AlertNotice): void {
  const { message, at: _at, ...fields } = notice;
  logger[LEVEL[notice.event]]({ alert: true, state: STATE[notice.event], ...fields }, message);
}

/** The metrics the notices feed; a narrow view so callers need not build the whole registry. */
export type AlertMetrics = Pick<Metrics, 'alerts' | 'feedFailing'>;

/** One count per kind raised; a resolved notice counts once, as kind `resolved`. */
export function countNotice(metrics: AlertMetrics, notice: AlertNotice): void {
  const kinds = notice.event === 'resolved' ? ['resolved'] : notice.kinds;
  for (const kind of kinds) metrics.alerts.inc({ kind, feed: notice.feed });
}
