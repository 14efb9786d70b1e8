import type { Logger } from 'pino';
import type { FreshnessAlerts, FreshnessVerdictInput, RunAlerts } from '../../sync/alerts.js';
import type { RunSummary } from '../../sync/report/summary.js';
import type { AlertConfig } from './alert-config.js';
import {
  type AlertKind,
  DROP_KIND,
  type FailingKind,
  type Finding,
  failingFindings,
  failingState,
  kindOfState,
  recordCountDrop,
  recordsRead,
  STALE_KIND,
} from './feed-health.js';
import { type FeedHealthStore, isFailingKind } from './health-store.js';
import { type AlertMetrics, type AlertNotice, countNotice, logNotice } from './notice.js';
import { transitionOf } from './transitions.js';
import { WebhookSink } from './webhook-sink.js';

export interface FeedAlertsDeps {
  config: AlertConfig;
  store: FeedHealthStore;
  logger: Logger;
  metrics?: AlertMetrics;
  /** Delivery of the notices to the webhook; by default a WebhookSink when one is configured. */
  webhook?: Pick<WebhookSink, 'send' | 'close'>;
  now?: () => number;
}

/**
 * A feed's health has two parts, each notified only when it changes: failing (chunks failed after
 * their retries, a stopped run, too many rejected records) and a record count far below the
 * feed's recent runs (a warning). Every notice goes to the log (`alert: true`), to the metrics
 * and, when configured, to the webhook, which never makes the caller wait.
 */
export class FeedAlerts implements RunAlerts, FreshnessAlerts {
  readonly #webhook: Pick<WebhookSink, 'send' | 'close'> | undefined;
  readonly #now: () => number;

  constructor(private readonly deps: FeedAlertsDeps) {
    const { webhook } = deps.config;
    this.#webhook = deps.webhook ?? (webhook ? new WebhookSink(webhook, deps.logger) : undefined);
    this.#now = deps.now ?? Date.now;
    if (webhook) deps.logger.info({ webhook: new URL(webhook.url).origin }, 'alert webhook configured');
  }

  async runFinished(summary: RunSummary, run: { retry?: boolean } = {}): Promise<void> {
    if (summary.dryRun) return;
    const { config, store, metrics } = this.deps;
    const counted = run.retry !== true;
    const failing = failingFindings(summary, config.rejectedShare);
    const records = recordsRead(summary);
    const drop = counted
      ? recordCountDrop(records, await store.recentRecords(summary.feed), config.dropShare)
      : undefined;
    const previous = await store.update(summary.feed, {
      runId: summary.runId,
      failing: failing.map(failingState),
      ...(counted ? { volume: { dropped: drop !== undefined, records } } : {}),
    });
    metrics?.feedFailing.set({ feed: summary.feed }, failing.length > 0 ? 1 : 0);
    this.#failingChanged(summary, previous.failing, failing);
    if (counted) this.#volumeChanged(summary, previous.dropped, drop, records);
  }

  /**
   * A feed with source.expectEvery, judged by the scheduler: an alert when it turns stale, a
   * resolved notice when a new export came; the same state again says nothing (one replica alerts).
   */
  async freshness(verdict: FreshnessVerdictInput): Promise<void> {
    const was = await this.deps.store.updateStale(verdict.feed, verdict.stale);
    if (was === verdict.stale) return;
    const notice: AlertNotice = {
      event: verdict.stale ? 'alert' : 'resolved',
      feed: verdict.feed,
      tenant: verdict.accountId,
      // No run shows a missing file: the notice names none.
      runId: '',
      kinds: [STALE_KIND],
      message: verdict.message,
      counts: { created: 0, updated: 0, skipped: 0, rejected: 0, failed: 0 },
      at: new Date(this.#now()).toISOString(),
    };
    this.#send(notice);
  }

  close(waitMs?: number): Promise<void> {
    return this.#webhook?.close(waitMs) ?? Promise.resolve();
  }

  #failingChanged(summary: RunSummary, previousStates: string[], now: Finding<FailingKind>[]): void {
    const feed = `feed ${summary.feed} (account ${summary.accountId})`;
    const kinds = now.map((f) => f.kind);
    // Kinds as the notices name them; the states (kind and cause) decide whether it changed.
    const previous = [...new Set(previousStates.map(kindOfState))].filter(isFailingKind);
    const was = previousStates.map((state) => state.replace(':', ' with ')).join(', ');
    switch (transitionOf(previousStates, now.map(failingState))) {
      case 'raised':
        return this.#notify(summary, 'alert', kinds, `${feed} is failing: ${messages(now)}`);
      case 'changed':
        return this.#notify(
          summary,
          'alert',
          kinds,
          `${feed} is failing differently (was ${was}): ${messages(now)}`,
        );
      case 'resolved':
        return this.#notify(
          summary,
          'resolved',
          previous,
          `${feed} is healthy again: run ${summary.runId} ended ${summary.state} without ${previous.join(', ')}`,
        );
      case 'unchanged':
        this.deps.logger.info(
          { feed: summary.feed, tenant: summary.accountId, runId: summary.runId, kinds },
          'feed still failing the same way (alerted before)',
        );
        return;
      case 'healthy':
        return;
    }
  }

  #volumeChanged(summary: RunSummary, wasDropped: boolean, drop: Finding | undefined, records: number): void {
    const feed = `feed ${summary.feed} (account ${summary.accountId})`;
    if (drop && !wasDropped) this.#notify(summary, 'warning', [DROP_KIND], `${feed}: ${drop.message}`);
    else if (!drop && wasDropped)
      this.#notify(
        summary,
        'resolved',
        [DROP_KIND],
        `${feed}: record count back to normal (${records} records)`,
      );
    else if (drop)
      this.deps.logger.info(
        { feed: summary.feed, tenant: summary.accountId, runId: summary.runId, records },
        'feed record count still low (warned before)',
      );
  }

  #notify(summary: RunSummary, event: AlertNotice['event'], kinds: AlertKind[], message: string): void {
    const notice: AlertNotice = {
      event,
      feed: summary.feed,
      tenant: summary.accountId,
      runId: summary.runId,
      kinds,
      message,
      counts: summary.counts,
      at: new Date(this.#now()).toISOString(),
    };
    this.#send(notice);
  }

  #send(notice: AlertNotice): void {
    logNotice(this.deps.logger, notice);
    if (this.deps.metrics) countNotice(this.deps.metrics, notice);
    this.#webhook?.send(notice);
  }
}

const messages = (findings: readonly Finding[]) => findings.map((f) => f.message).join('; ');
