import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus metrics of one erp-bridge process (worker, scheduler or sync), in their own
 * registry so tests and several processes in one test run never share counters. Names follow the
 * Prometheus conventions: `_total` counters, base units (seconds), low-cardinality labels only
 * (tenant = X-Account-Id, bounded by the partner's accounts; never externalIds or file names).
 *
 * Counters are incremented where the event happens (client hooks, chunk handler, run finish);
 * the gauges of queue depth and busy tenant slots are read from Redis when /metrics is scraped.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Source records by final outcome (created, updated, skipped, rejected, failed), kind and tenant. */
  readonly records: Counter<'outcome' | 'kind' | 'tenant'>;
  /** Partner API HTTP requests (every attempt) by operation and status ("network" when none came). */
  readonly httpRequests: Counter<'operation' | 'status'>;
  /** Resends by the retry policy (500s and network failures) by operation. */
  readonly retries: Counter<'operation'>;
  /** 429 answers whose Retry-After paused the credentials fleet-wide. */
  readonly rateLimitPauses: Counter<'operation'>;
  /** Wall time of one chunk (existence check + bulk create + …), from slot to outcomes stored. */
  readonly chunkDuration: Histogram<'kind' | 'tenant'>;
  /** Jobs per queue and state (waiting, active, delayed, waiting-children, failed), read on scrape. */
  readonly queueDepth: Gauge<'queue' | 'state'>;
  /** Tenant slots in use fleet-wide, per tenant, read on scrape. */
  readonly tenantSlotsBusy: Gauge<'tenant'>;
  /** Alerts raised, by kind (state changes only: see src/ops/alerts). */
  readonly alerts: Counter<'kind' | 'feed'>;
  /** 1 while a feed is failing (its last run raised an alert), 0 once it is healthy again. */
  readonly feedFailing: Gauge<'feed'>;
}

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'erp_bridge_' });
  const registers = [registry];
  return {
    registry,
    records: new Counter({
      name: 'erp_bridge_records_total',
      help: 'Source records by final outcome, record kind and tenant (X-Account-Id)',
      labelNames: ['outcome', 'kind', 'tenant'],
      registers,
    }),
    httpRequests: new Counter({
      name: 'erp_bridge_http_requests_total',
      help: 'Partner API HTTP requests (each attempt) by operation and status',
      labelNames: ['operation', 'status'],
      registers,
    }),
    retries: new Counter({
      name: 'erp_bridge_http_retries_total',
      help: 'Requests resent after a 500 or a network failure, by operation',
      labelNames: ['operation'],
      registers,
    }),
    rateLimitPauses: new Counter({
      name: 'erp_bridge_rate_limit_pauses_total',
      help: '429 answers that paused every request of the credentials for Retry-After',
      labelNames: ['operation'],
      registers,
    }),
    chunkDuration: new Histogram({
      name: 'erp_bridge_chunk_duration_seconds',
      help: 'Time to sync one chunk of at most 1000 records',
      labelNames: ['kind', 'tenant'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'erp_bridge_queue_jobs',
      help: 'Jobs per queue and state, read from Redis when scraped',
      labelNames: ['queue', 'state'],
      registers,
    }),
    tenantSlotsBusy: new Gauge({
      name: 'erp_bridge_tenant_slots_busy',
      help: 'Per-tenant slots in use fleet-wide, read from Redis when scraped',
      labelNames: ['tenant'],
      registers,
    }),
    alerts: new Counter({
      name: 'erp_bridge_alerts_total',
      help: 'Alerts raised (on a change of a feed from healthy to failing, or back), by kind and feed',
      labelNames: ['kind', 'feed'],
      registers,
    }),
    feedFailing: new Gauge({
      name: 'erp_bridge_feed_failing',
      help: '1 while a feed is failing (its last run raised an alert), else 0',
      labelNames: ['feed'],
      registers,
    }),
  };
}
