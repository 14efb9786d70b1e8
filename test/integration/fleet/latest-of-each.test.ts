import { afterAll, describe, expect, it } from 'vitest';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { RedisReconcileStore } from '../../../src/fleet/reconcile-store.js';
import { RedisRunStore } from '../../../src/fleet/run-store.js';
import { RedisFeedHealthStore } from '../../../src/ops/alerts/redis-health-store.js';
import type { ReconcileSummary } from '../../../src/sync/reconcile/summary.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { testRedis } from '../../support/redis.js';

// The console's overview reads one hash per fleet (latest-of-each.ts): the last finished run and
// reconcile of each tenant x feed. What it must hold through late, replayed and expired finishes.

const redis = testRedis();
const connection = redis.connect();
afterAll(() => redis.cleanup());

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

function summary(runId: string, startedAt: number, created: number, accountId = 7): RunSummary {
  const total = { records: created, amount: '1.00' };
  const none = { records: 0, amount: '0' };
  return {
    runId,
    feed: 'bank',
    kind: 'transactions',
    accountId,
    dryRun: false,
    state: 'completed',
    startedAt: iso(startedAt),
    finishedAt: iso(startedAt + 1_000),
    files: [
      { path: '/x/first.csv', sha256: 'a', records: 1 },
      { path: '/x/last.csv', sha256: 'b', records: created - 1 },
    ],
    counts: { created, updated: 0, skipped: 0, rejected: 0, failed: 0 },
    controlTotals: { created: total, updated: none, skipped: none, rejected: none, failed: none, all: total },
    firstErrors: [{ file: 'x', line: 1, outcome: 'rejected', code: 'X', message: 'not kept in the entry' }],
  } as RunSummary;
}

describe('the latest run of each tenant x feed', () => {
  it('keeps the newest run when an older one finishes later, and the first summary on a replay', async () => {
    const keys = fleetKeys(redis.newPrefix());
    const store = new RedisRunStore(connection, keys, DAY);
    const now = Date.now();
    await store.finish(summary('new', now - 1_000, 5));
    await store.finish(summary('old', now - 60_000, 3));
    // A replayed finish of the newest run with another summary: the first stays, in both places.
    await store.finish(summary('new', now - 1_000, 99));
    await store.finish(summary('other-tenant', now - 5_000, 2, 8));
    const latest = (await store.latest()) as RunSummary[];
    const byTenant = new Map(latest.map((run) => [run.accountId, run]));
    expect(latest).toHaveLength(2);
    expect(byTenant.get(7)?.runId).toBe('new');
    expect(byTenant.get(7)?.counts.created).toBe(5);
    expect(byTenant.get(8)?.runId).toBe('other-tenant');
    // The entry is what a row shows: the last file only, no first errors.
    expect(byTenant.get(7)?.files).toEqual([{ path: '/x/last.csv', records: 4 }]);
    expect(byTenant.get(7)).not.toHaveProperty('firstErrors');
    expect(((await store.summary('new')) as RunSummary).counts.created).toBe(5);
  });

  it('drops entries past the retention from the hash', async () => {
    const keys = fleetKeys(redis.newPrefix());
    const store = new RedisRunStore(connection, keys, DAY);
    await store.finish(summary('expired', Date.now() - 2 * DAY, 1));
    await store.finish(summary('kept', Date.now() - 1_000, 1, 8));
    expect(((await store.latest()) as RunSummary[]).map((run) => run.runId)).toEqual(['kept']);
    expect(await connection.hkeys(keys.latestRuns())).toEqual(['8:bank']);
  });

  it('knows the runs under way: from their create to their finish, with the account the import resolved', async () => {
    const keys = fleetKeys(redis.newPrefix());
    const store = new RedisRunStore(connection, keys, DAY);
    const meta = (runId: string, startedAt: number) => ({
      runId,
      feed: 'bank',
      kind: 'transactions',
      accountId: 7,
      file: 'f.csv',
      sha256: 'a',
      dryRun: false,
      startedAt: iso(startedAt),
    });
    const now = Date.now();
    await store.create(meta('second', now - 1_000));
    await store.create(meta('first', now - 5_000));
    await store.create(meta('lost', now - 2 * DAY));
    await store.setAccount('second', 8);
    expect(await store.running()).toEqual([
      { feed: 'bank', runId: 'first', accountId: 7, startedAt: now - 5_000 },
      { feed: 'bank', runId: 'second', accountId: 8, startedAt: now - 1_000 },
    ]);
    // The one past retention (its jobs lost) is dropped from the hash.
    expect(await connection.hlen(keys.runningRuns())).toBe(2);
    await store.finish(summary('first', now - 5_000, 1));
    // A replayed finish (the summary stored already) still leaves it finished.
    await store.finish(summary('first', now - 5_000, 1));
    expect((await store.running()).map((run) => run.runId)).toEqual(['second']);
  });

  it('keeps the newest reconcile of each tenant x feed', async () => {
    const keys = fleetKeys(redis.newPrefix());
    const reconciles = new RedisReconcileStore(connection, keys, DAY);
    const finish = async (reconcileId: string, startedAt: number) =>
      (await reconciles.report(reconcileId)).finish({
        reconcileId,
        feed: 'bank',
        kind: 'transactions',
        accountId: 7,
        state: 'equal',
        startedAt: iso(startedAt),
        finishedAt: iso(startedAt + 1_000),
        durationMs: 1_000,
        files: [],
        counts: { equal: 1, missing: 0, different: 0, extra: 0, duplicate: 0, rejected: 0 },
        heldWithoutExternalId: 0,
        excluded: 0,
        controlTotals: { source: { records: 1 }, service: { records: 1 } },
        firstDifferences: [],
      } as ReconcileSummary);
    await finish('rec-new', Date.now() - 1_000);
    await finish('rec-old', Date.now() - 50_000);
    expect(((await reconciles.latest()) as ReconcileSummary[]).map((r) => r.reconcileId)).toEqual([
      'rec-new',
    ]);
  });
});

describe("a feed's open alerts in words", () => {
  it('lists failing states with their cause, a record-count drop and staleness; healthy feeds are absent', async () => {
    const health = new RedisFeedHealthStore(connection, fleetKeys(redis.newPrefix()));
    await health.update('stopped', {
      runId: 'r1',
      failing: ['run-stopped:INVALID_CREDENTIALS', 'chunk-failed'],
    });
    await health.update('dropped', { runId: 'r2', failing: [], volume: { dropped: true, records: 3 } });
    await health.update('healthy', { runId: 'r3', failing: [], volume: { dropped: false, records: 30 } });
    await health.updateStale('quiet', true);
    await health.updateStale('back', false);
    expect(await health.openAlerts()).toEqual(
      new Map([
        ['stopped', ['records failed', 'run stopped: INVALID_CREDENTIALS']],
        ['dropped', ['far fewer records']],
        ['quiet', ['no new export']],
      ]),
    );
  });
});
