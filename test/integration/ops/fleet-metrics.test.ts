import { afterEach, describe, expect, it } from 'vitest';
import { dashboardQueues } from '../../../src/fleet/dashboard.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { RedisGate } from '../../../src/gate/redis-gate.js';
import { createLogger } from '../../../src/logging/logger.js';
import { startAdminServer } from '../../../src/ops/admin-server.js';
import { RedisFeedHealthStore } from '../../../src/ops/alerts/redis-health-store.js';
import { fleetReadings } from '../../../src/ops/fleet-readings.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import { get } from '../../support/admin-server.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { parseExposition, total } from '../../support/prometheus.js';

const world = fleetTestWorld();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The fleet of this test with metrics as `erp-bridge worker` wires them, served by an admin server. */
async function meteredFleet() {
  const fleet = world.start();
  const metrics = createMetrics({
    processMetrics: false,
    fleet: fleetReadings({ queues: fleet.queues, redis: fleet.connection, prefix: fleet.config.prefix }),
  });
  const server = await startAdminServer({
    config: { host: '127.0.0.1', port: 0, credentials: {} },
    logger: createLogger({ level: 'silent' }),
    metrics,
    readiness: {},
    dashboard: dashboardQueues(fleet.queues),
  });
  closers.push(() => server.close());
  const scrape = async () => {
    const res = await get(server, '/metrics');
    expect(res.status).toBe(200);
    return parseExposition(res.text);
  };
  return { fleet, metrics, scrape };
}

describe('/metrics of a worker', () => {
  it('counts every record by outcome once, the requests and the chunks of a fleet run', async () => {
    const { fleet, metrics, scrape } = await meteredFleet();
    fleet.worker(4, { metrics });
    const exp = transactionsExport({ rows: 2_500, name: 'metrics-a', concurrency: 2 });
    const [run] = await fleet.enqueue(exp.feedFile);
    const summary = await fleet.finished(String(run?.runId));
    const samples = await scrape();
    const records = (outcome: string) =>
      total(samples, 'erp_bridge_records_total', { outcome, kind: 'transactions', tenant: '1001' });
    expect(summary.counts).toMatchObject({ created: 2_495, rejected: 3, skipped: 2, failed: 0 });
    for (const outcome of ['created', 'updated', 'skipped', 'rejected', 'failed'] as const)
      expect(records(outcome), outcome).toBe(summary.counts[outcome]);
    // 2495 records sent: chunks of 1000, 1000 and 495, each one existence check and one bulk create.
    const sent = { operation: 'createTransactionsBulk', status: '200' };
    expect(total(samples, 'erp_bridge_http_requests_total', sent)).toBe(3);
    expect(total(samples, 'erp_bridge_http_requests_total', { operation: 'checkTransactionsExist' })).toBe(3);
    const chunks = { kind: 'transactions', tenant: '1001' };
    // A chunk replayed after a stalled lock would be timed again (it does the work again).
    expect(total(samples, 'erp_bridge_chunk_duration_seconds_count', chunks)).toBeGreaterThanOrEqual(3);
    expect(total(samples, 'erp_bridge_chunk_duration_seconds_sum', chunks)).toBeGreaterThan(0);
  });

  it('counts retries of 500s and the 429 pauses', async () => {
    const { fleet, metrics, scrape } = await meteredFleet();
    world.faults({
      script: [
        { op: 'checkTransactionsExist', fault: '500', times: 2 },
        { op: 'createTransactionsBulk', fault: '429', times: 1, retryAfterSeconds: 1 },
      ],
    });
    fleet.worker(2, { metrics, instantRetries: true });
    const exp = transactionsExport({ rows: 300, name: 'metrics-b', invalidRows: [], excludedRows: [] });
    const [run] = await fleet.enqueue(exp.feedFile);
    expect((await fleet.finished(String(run?.runId))).counts.created).toBe(300);
    const samples = await scrape();
    expect(
      total(samples, 'erp_bridge_http_requests_total', {
        operation: 'checkTransactionsExist',
        status: '500',
      }),
    ).toBe(2);
    expect(total(samples, 'erp_bridge_http_retries_total', { operation: 'checkTransactionsExist' })).toBe(2);
    expect(
      total(samples, 'erp_bridge_rate_limit_pauses_total', { operation: 'createTransactionsBulk' }),
    ).toBe(1);
    expect(total(samples, 'erp_bridge_records_total', { outcome: 'created' })).toBe(300);
  });

  it('reads queue depth and busy tenant slots from Redis when scraped', async () => {
    const { fleet, scrape } = await meteredFleet();
    const before = await scrape();
    expect(total(before, 'erp_bridge_queue_jobs', { queue: 'ticks', state: 'delayed' })).toBe(0);
    expect(before.filter((s) => s.name === 'erp_bridge_tenant_slots_busy')).toEqual([]);

    await fleet.queues.ticks.add('tick', { feedFile: '/nowhere/feed.yaml' }, { delay: 600_000 });
    const gate = new RedisGate({ redis: fleet.config.redisUrl, keyPrefix: fleet.config.prefix });
    closers.push(() => gate.close());
    const leases = [await gate.tryAcquire('account:1002', 3), await gate.tryAcquire('account:1002', 3)];
    const after = await scrape();
    expect(total(after, 'erp_bridge_queue_jobs', { queue: 'ticks', state: 'delayed' })).toBe(1);
    expect(total(after, 'erp_bridge_queue_jobs', { queue: 'chunks' })).toBe(0);
    expect(after.filter((s) => s.name === 'erp_bridge_tenant_slots_busy')).toEqual([
      { name: 'erp_bridge_tenant_slots_busy', labels: { tenant: '1002' }, value: 2 },
    ]);

    for (const lease of leases) await lease?.release();
    const released = await scrape();
    expect(total(released, 'erp_bridge_tenant_slots_busy', { tenant: '1002' })).toBe(0);
  });
});

describe('records of a replayed job', () => {
  it('are counted once: a batch stored again under the same name is not reported again', async () => {
    const fleet = world.start();
    const heard: number[] = [];
    const outcomes: RecordOutcome[] = [
      { file: 'a.csv', line: 2, externalId: 'x-1', outcome: 'created', serviceId: 1 },
      { file: 'a.csv', line: 3, externalId: 'x-2', outcome: 'rejected', code: 'INVALID_RECORD' },
    ];
    // The first run of chunk 4 and its replay by another worker after a crash.
    for (const attempt of [1, 2]) {
      const run = fleet.store.handle('run-replay', 'chunk:4', (stored) => heard.push(attempt, stored.length));
      await run.report.record(outcomes);
    }
    expect(heard).toEqual([1, 2]);
    expect((await fleet.outcomes('run-replay')).map((o) => o.line)).toEqual([2, 3]);
  });
});

describe('the feeds’ health', () => {
  it('reports the fleet-wide state of each feed, whichever worker finished its last run', async () => {
    const fleet = world.start();
    const readings = fleetReadings({
      queues: fleet.queues,
      redis: fleet.connection,
      prefix: fleet.config.prefix,
    });
    // Two workers' metrics; worker A finished the failing run and set its own gauge.
    const [a, b] = [
      createMetrics({ processMetrics: false, fleet: readings }),
      createMetrics({ processMetrics: false, fleet: readings }),
    ];
    const failing = async (metrics: typeof a) =>
      Object.fromEntries((await metrics.feedFailing.get()).values.map((v) => [v.labels.feed, v.value]));
    const health = new RedisFeedHealthStore(fleet.connection, fleetKeys(fleet.config.prefix));
    await health.update('feed-x', { runId: 'run-1', failing: ['chunk-failed'] });
    await health.update('feed-y', { runId: 'run-2', failing: [] });
    a.feedFailing.set({ feed: 'feed-x' }, 1);
    expect(await failing(a)).toEqual({ 'feed-x': 1, 'feed-y': 0 });
    expect(await failing(b)).toEqual({ 'feed-x': 1, 'feed-y': 0 });
    // Worker B's retry run resolves feed-x: A, which never saw that run, reports it healthy too.
    await health.update('feed-x', { runId: 'run-3', failing: [] });
    expect(await failing(a)).toEqual({ 'feed-x': 0, 'feed-y': 0 });
    expect(await failing(b)).toEqual({ 'feed-x': 0, 'feed-y': 0 });
  });
});
