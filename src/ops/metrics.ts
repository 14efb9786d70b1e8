import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus metrics of one erp-bridge process (worker, scheduler or sync), in their own
 * registry so tests and several processes in one test run never share counters. Names follow the
 * Prometheus conventions: `_total` counters, base units (seconds), low-cardinality labels only
 * (tenant = X-Account-Id, bounded by the partner's accounts; never externalIds or file names).
 *
 * Counters are incremented where the event happens (client hooks, chunk handler, run finish);
 * the gauges of queue depth, busy tenant slots and failing feeds are read from Redis when /metrics
 * is scraped.
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
  /**
   * 1 while a feed is failing (its last run raised an alert), 0 once it is healthy again; in a
   * fleet read from Redis on scrape, so every worker reports the fleet's state.
   */
  readonly feedFailing: Gauge<'feed'>;
}

/** The fleet-wide readings behind the gauges, taken from Redis at scrape time. */
export interface FleetReadings {
  queueDepth(): Promise<ReadonlyArray<{ queue: string; state: string; jobs: number }>>;
  /** Busy slots per tenant (X-Account-Id). */
  tenantSlots(): Promise<ReadonlyMap<string, number>>;
  /** Whether each feed is failing, as the fleet's last finished run of it left it. */
  feedFailing(): Promise<ReadonlyMap<string, boolean>>;
}

export interface MetricsOptions {
  /** Node.js process metrics (CPU, memory, event loop lag) under the erp_bridge_ prefix; default on. */
  processMetrics?: boolean;
  /** Where the queue-depth and tenant-slot gauges are read from; without it they stay empty. */
  fleet?: FleetReadings;
  /** A reading that failed during a scrape (the gauge is then left empty; the scrape goes on). */
  onScrapeError?(error: unknown, reading: keyof FleetReadings): void;
}

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const { fleet, onScrapeError } = options;
  /**
   * Refreshes a gauge from a reading; a failed reading (Redis down) empties it rather than leaving
   * stale values, and never fails the scrape, so the other metrics are still served.
   */
  const readInto = <K extends keyof FleetReadings, L extends string>(
    name: K,
    fill: (gauge: Gauge<L>, reading: Awaited<ReturnType<FleetReadings[K]>>) => void,
  ) =>
    async function collect(this: Gauge<L>): Promise<void> {
      if (!fleet) return; // nothing to read: the gauge keeps what this process set, if anything
      let reading: Awaited<ReturnType<FleetReadings[K]>>;
      try {
        reading = (await fleet[name]()) as Awaited<ReturnType<FleetReadings[K]>>;
      } catch (error) {
        this.reset();
        onScrapeError?.(error, name);
        return;
      }
      this.reset();
      fill(this, reading);
    };
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
      collect: readInto('queueDepth', (gauge, rows) => {
        for (const row of rows) gauge.set({ queue: row.queue, state: row.state }, row.jobs);
      }),
    }),
    tenantSlotsBusy: new Gauge({
      name: 'erp_bridge_tenant_slots_busy',
      help: 'Per-tenant slots in use fleet-wide, read from Redis when scraped',
      labelNames: ['tenant'],
      registers,
      collect: readInto('tenantSlots', (gauge, slots) => {
        for (const [tenant, busy] of slots) gauge.set({ tenant }, busy);
      }),
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
      // In the fleet, the state shared in Redis: whichever worker finished the feed's last run,
      // every worker reports the same value. Without a fleet (sync), what this process set.
      collect: readInto('feedFailing', (gauge, feeds) => {
        for (const [feed, failing] of feeds) gauge.set({ feed }, failing ? 1 : 0);
      }),
    }),
  };
}
