/**
 * The console's pages on a fleet of BENCH_TENANTS tenants (default 1,000) x 3 feeds, each feed with
 * BENCH_RUNS_PER_FEED finished runs (default 7: a week of nightly runs) in Redis, stored through the
 * run store's own calls; one feed in 20 with open alerts, every feed watched for freshness, one
 * reconcile per tenant. Issue 31: "fast on a fleet with 1,000 tenants".
 *
 * Each page is requested BENCH_ROUNDS times (default 30) over loopback from this process (the
 * console plugin on a fastify server, as the admin server mounts it), alternated request by request
 * with the baseline: the same libraries alone on the same Redis data — fastify answering one
 * HGETALL of the latest-runs hash, every value JSON.parse'd, sorted, the first 100 as JSON. Medians
 * of time to first byte, total time, and this process's CPU per request (client included, the same
 * for both).
 *
 * Then the same for report folders (`erp-bridge console --reports`, test/bench/console-folders.ts):
 * BENCH_FOLDERS run folders (default 21,000; 0 skips), the first page and later ones.
 *
 *   npm run bench:console
 *   BENCH_TENANTS=200 BENCH_ROUNDS=10 npm run bench:console     # quick
 *   REDIS_URL=redis://127.0.0.1:6391 npm run bench:console
 */

import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { consolePlugin } from '../../src/console/console-plugin.js';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import { buildSummary, RunTally } from '../../src/sync/report/summary.js';
import { consoleFleet } from '../support/console-fleet.js';
import { benchReportFolders } from './console-folders.js';
import { alternate, urlOf } from './page-timing.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TENANTS = Number(process.env.BENCH_TENANTS ?? 1_000);
const RUNS_PER_FEED = Number(process.env.BENCH_RUNS_PER_FEED ?? 7);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 21_000);
const FEEDS = ['bank', 'invoices', 'plans'] as const;
const DAY = 86_400_000;
const RETENTION = 14 * DAY;

const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const prefix = `bench-console-${randomUUID().slice(0, 8)}`;
const { keys, store, registry, reconciles, health, source } = consoleFleet(redis, prefix, RETENTION);

/** The tenant whose run and history pages are measured (its newest bank run has outcomes). */
const MEASURED_TENANT = Math.ceil(TENANTS / 2);

const feedName = (tenant: number, feed: string) => `t${tenant}-${feed}`;

/**
 * One finished run as a worker stores it: 1,000 records, some rejected (first errors kept). Only
 * the run whose page is measured stores its outcomes (21 million would only slow the seeding).
 */
async function storeRun(tenant: number, feed: string, day: number, withOutcomes = false): Promise<void> {
  const name = feedName(tenant, feed);
  const startedAt = Date.now() - day * DAY - (tenant % 600) * 1_000;
  const runId = `${name}-d${day}-${tenant}`;
  const file = `/exports/${name}/export-${day}.csv`;
  await store.create({
    runId,
    feed: name,
    kind: feed === 'bank' ? 'transactions' : feed,
    accountId: tenant,
    file,
    sha256: 'a'.repeat(64),
    dryRun: false,
    startedAt: new Date(startedAt).toISOString(),
  });
  const tally = new RunTally();
  const outcomes: RecordOutcome[] = [];
  const rejected = (tenant + day) % 10 === 0 || withOutcomes ? 25 : 0;
  for (let line = 2; line < 1_002; line++) {
    const outcome: RecordOutcome =
      line - 2 < rejected
        ? {
            file,
            line,
            externalId: `X-${line}`,
            outcome: 'rejected',
            code: 'INVALID_RECORD',
            message: 'bookingDate (column "Buchungsdatum"): "31.02.2026" is not a calendar date',
            amount: '12.50',
          }
        : { file, line, externalId: `X-${line}`, outcome: 'created', serviceId: line, amount: '12.50' };
    tally.add(outcome);
    if (withOutcomes) outcomes.push(outcome);
  }
  if (withOutcomes) await store.handle(runId, 'chunk:0').report.record(outcomes);
  await store.finish(
    buildSummary({
      runId,
      feed: { name, kind: feed === 'bank' ? 'transactions' : feed, accountId: tenant },
      dryRun: false,
      startedAt,
      finishedAt: startedAt + 40_000,
      files: [{ path: file, sha256: 'a'.repeat(64), records: 1_000 }],
      tally,
    }),
  );
}

async function seed(): Promise<void> {
  const jobs: (() => Promise<unknown>)[] = [];
  for (let tenant = 1; tenant <= TENANTS; tenant++) {
    for (const feed of FEEDS) {
      const name = feedName(tenant, feed);
      for (let day = RUNS_PER_FEED - 1; day >= 0; day--)
        if (tenant !== MEASURED_TENANT || feed !== 'bank' || day > 0)
          jobs.push(() => storeRun(tenant, feed, day));
      jobs.push(() => registry.expectFiles(name, tenant, DAY, Date.now() - 2 * DAY));
      if (tenant % 20 === 0)
        jobs.push(() => health.update(name, { runId: `${name}-d0`, failing: ['rejected-share'] }));
    }
    jobs.push(async () => {
      const id = `rec-t${tenant}`;
      await (await reconciles.report(id)).finish({
        reconcileId: id,
        feed: feedName(tenant, 'bank'),
        kind: 'transactions',
        accountId: tenant,
        state: tenant % 7 === 0 ? 'differences' : 'equal',
        startedAt: new Date(Date.now() - 3_600_000).toISOString(),
        finishedAt: new Date().toISOString(),
        durationMs: 1_000,
        files: [],
        counts: {
          equal: 1_000,
          missing: tenant % 7 === 0 ? 3 : 0,
          different: 0,
          extra: 0,
          duplicate: 0,
          rejected: 0,
        },
        heldWithoutExternalId: 0,
        excluded: 0,
        controlTotals: {
          source: { records: 1_000, amount: '12500.00' },
          service: { records: 1_000, amount: '12500.00' },
        },
        firstDifferences: [],
      });
    });
  }
  jobs.push(() => storeRun(MEASURED_TENANT, 'bank', 0, true));
  // 64 at a time: seeding is not what is measured.
  for (let i = 0; i < jobs.length; i += 64) await Promise.all(jobs.slice(i, i + 64).map((job) => job()));
}

async function ourServer() {
  const app = Fastify();
  await app.register(consolePlugin(source));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

/** The libraries alone: one HGETALL, every value parsed, sorted by start, 100 as JSON. */
async function baselineServer() {
  const app = Fastify();
  app.get('/baseline', async () => {
    const entries = await redis.hgetall(keys.latestRuns());
    const runs = Object.values(entries).map(
      (v) => JSON.parse(v.slice(v.indexOf(' ') + 1)) as { startedAt: string },
    );
    runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    return runs.slice(0, 100);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

async function main() {
  const t0 = performance.now();
  await seed();
  const seeded = await redis.hlen(keys.latestRuns());
  console.log(
    `seeded ${TENANTS} tenants x ${FEEDS.length} feeds x ${RUNS_PER_FEED} runs (${TENANTS * FEEDS.length * RUNS_PER_FEED} runs, ${seeded} latest entries) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const ours = await ourServer();
  const baseline = await baselineServer();
  const oneRun = `${feedName(MEASURED_TENANT, 'bank')}-d0-${MEASURED_TENANT}`;
  const pages: [string, string][] = [
    ['overview, worst first', '/console'],
    ['overview, by tenant, page 15', '/console?sort=tenant&dir=asc&page=15'],
    ['overview, filtered', `/console?q=t${Math.ceil(TENANTS / 3)}-`],
    ['a run', `/console/runs/${oneRun}`],
    ["a feed's history", `/console/feeds/${feedName(MEASURED_TENANT, 'bank')}`],
  ];
  await alternate(
    pages.map(([label, path]) => [label, urlOf(ours) + path]),
    `${urlOf(baseline)}/baseline`,
    ROUNDS,
  );
  await ours.close();
  await baseline.close();
  if (FOLDERS > 0) await benchReportFolders(FOLDERS, ROUNDS);
}

try {
  await main();
} finally {
  for await (const batch of redis.scanStream({ match: `*${prefix}*`, count: 1000 }))
    if ((batch as string[]).length) await redis.unlink(...(batch as string[]));
  await redis.quit();
}
