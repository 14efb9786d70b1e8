import type { Redis } from 'ioredis';
import { FleetConsoleSource } from '../../src/fleet/console-source.js';
import { FileRegistry } from '../../src/fleet/file-registry.js';
import { fleetKeys } from '../../src/fleet/keys.js';
import { RedisReconcileStore } from '../../src/fleet/reconcile-store.js';
import { RedisRunStore } from '../../src/fleet/run-store.js';
import { RedisFeedHealthStore } from '../../src/ops/alerts/redis-health-store.js';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import { buildSummary, RunTally } from '../../src/sync/report/summary.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** The ids the seeded fleet holds, for the pages the tests open. */
export const SEEDED = {
  /** Tenant 1001: completed with two rejected rows (one message carrying markup). */
  rejectedRun: 'acme-bank-20261128T010000Z-aaaaaa',
  /** Tenant 1002: a record failed, then the service stopped the run. */
  failedRun: 'beta-invoices-20261128T020000Z-bbbbbb',
  /** Tenant 1003: its first run still going (meta only, no summary). */
  runningRun: 'gamma-bank-20261128T030000Z-cccccc',
  /** Tenant 1004: a stored summary that is not one (in the run and in the overview's hash). */
  damagedRun: 'delta-bank-20261128T040000Z-dddddd',
  /** acme-bank's reconcile with a missing, a different and an extra record. */
  reconcile: 'rec-acme-bank-20261128T050000Z-eeeeee',
} as const;

/**
 * A fleet's stores under `prefix` of `connection` and the console's read port over them, as the
 * worker and scheduler wire it (src/cli/fleet.ts, open alerts from the feed health included):
 * what the console tests and `npm run bench:console` seed and read.
 */
export function consoleFleet(connection: Redis, prefix: string, retentionMs = DAY) {
  const keys = fleetKeys(prefix);
  const store = new RedisRunStore(connection, keys, retentionMs);
  const registry = new FileRegistry(connection, keys);
  const reconciles = new RedisReconcileStore(connection, keys, retentionMs);
  const health = new RedisFeedHealthStore(connection, keys);
  const source = new FleetConsoleSource({
    store,
    registry,
    reconciles,
    alerts: () => health.openAlerts(),
    now: () => Date.now(),
  });
  return { connection, keys, store, registry, reconciles, health, source };
}

export type ConsoleFleet = ReturnType<typeof consoleFleet>;

/** A record the service created on `line`. */
export const createdOutcome = (line: number): RecordOutcome => ({
  file: 'export.csv',
  line,
  externalId: `T-${line}`,
  outcome: 'created',
  serviceId: line,
  amount: '10.00',
});

/** A finished fleet run of `outcomes`, stored through the run store's own calls, as a worker stores one. */
export async function storeRun(
  fleet: ConsoleFleet,
  run: { runId: string; feed: string; accountId: number },
  outcomes: RecordOutcome[],
  stop?: { code: string; message: string },
) {
  const { runId, feed, accountId } = run;
  const startedAt = Date.now() - 60_000;
  await fleet.store.create({
    runId,
    feed,
    kind: 'transactions',
    accountId,
    file: `/exports/${feed}/export.csv`,
    sha256: 'a'.repeat(64),
    dryRun: false,
    startedAt: new Date(startedAt).toISOString(),
  });
  const handle = fleet.store.handle(runId, 'chunk:0');
  await handle.report.record(outcomes);
  const tally = new RunTally();
  for (const o of outcomes) tally.add(o);
  await handle.report.finish(
    buildSummary({
      runId,
      feed: { name: feed, kind: 'transactions', accountId },
      dryRun: false,
      startedAt,
      finishedAt: startedAt + 5_000,
      files: [{ path: `/exports/${feed}/export.csv`, sha256: 'a'.repeat(64), records: outcomes.length }],
      tally,
      ...(stop ? { stop: { ...stop, exitCode: 1 as const } } : {}),
    }),
  );
}

/** A run known only by its meta: started, no summary yet. */
const startRun = (fleet: ConsoleFleet, runId: string, feed: string, accountId: number, hash: string) =>
  fleet.store.create({
    runId,
    feed,
    kind: 'transactions',
    accountId,
    file: `/exports/${feed}/export.csv`,
    sha256: hash.repeat(64),
    dryRun: false,
    startedAt: new Date().toISOString(),
  });

/**
 * Runs of several tenants (SEEDED), a reconcile with differences, freshness entries (acme-bank
 * stale, beta-invoices fresh, zeta-sftp watched with no run: stale) and the alerts the stopped
 * run and the stale feed raised, every one written through the stores' own calls. Times are relative
 * to now, so what the pages judge (stale, retention) does not depend on the day the test runs.
 */
export async function seedConsoleFleet(fleet: ConsoleFleet): Promise<void> {
  await storeRun(fleet, { runId: SEEDED.rejectedRun, feed: 'acme-bank', accountId: 1001 }, [
    createdOutcome(2),
    {
      file: 'export.csv',
      line: 3,
      externalId: 'T-3',
      outcome: 'rejected',
      code: 'INVALID_AMOUNT',
      message: 'amount "12,3x" is not a number <script>alert(1)</script>',
      amount: '0',
    },
    createdOutcome(4),
    {
      file: 'export.csv',
      line: 5,
      externalId: 'T-5',
      outcome: 'rejected',
      code: 'MISSING_DATE',
      message: 'bookingDate is empty',
    },
  ]);
  await storeRun(
    fleet,
    { runId: SEEDED.failedRun, feed: 'beta-invoices', accountId: 1002 },
    [
      createdOutcome(2),
      { file: 'export.csv', line: 3, externalId: 'INV-3', outcome: 'failed', code: 'HTTP_503', message: 'x' },
    ],
    { code: 'ACCOUNT_NOT_WRITABLE', message: 'the account 1002 is closed' },
  );
  await startRun(fleet, SEEDED.runningRun, 'gamma-bank', 1003, 'b');
  await startRun(fleet, SEEDED.damagedRun, 'delta-bank', 1004, 'c');
  const damaged = JSON.stringify({ runId: SEEDED.damagedRun, state: 'completed', counts: 'many' });
  await fleet.connection.hset(fleet.keys.run(SEEDED.damagedRun), 'summary', damaged);
  await fleet.connection.hset(fleet.keys.latestRuns(), '1004:delta-bank', `${Date.now()} ${damaged}`);
  await fleet.connection.hdel(fleet.keys.runningRuns(), `delta-bank\u0000${SEEDED.damagedRun}`);
  const report = await fleet.reconciles.report(SEEDED.reconcile);
  await report.line({ verdict: 'equal', file: 'export.csv', line: 2, externalId: 'T-2' });
  await report.line({ verdict: 'missing', file: 'export.csv', line: 4, externalId: 'T-4', amount: '10.00' });
  await report.line({
    verdict: 'different',
    file: 'export.csv',
    line: 6,
    externalId: 'T-6',
    fields: [{ field: 'amount', source: '12.00', service: '21.00' }],
  });
  await report.line({
    verdict: 'extra',
    externalId: 'X-9',
    serviceId: 99,
    amount: '9.00',
    message: 'in the service, not in the exports',
  });
  await report.finish({
    reconcileId: SEEDED.reconcile,
    feed: 'acme-bank',
    kind: 'transactions',
    accountId: 1001,
    state: 'differences',
    startedAt: new Date(Date.now() - 30_000).toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: 30_000,
    files: ['/exports/acme-bank/export.csv'],
    counts: { equal: 1, missing: 1, different: 1, extra: 1, duplicate: 0, rejected: 0 },
    heldWithoutExternalId: 0,
    excluded: 0,
    controlTotals: { source: { records: 3, amount: '32.00' }, service: { records: 3, amount: '40.00' } },
    firstDifferences: [],
  });
  // acme-bank watched for two hours, expected hourly, no new export: stale; beta-invoices fresh.
  await fleet.registry.expectFiles('acme-bank', 1001, HOUR, Date.now() - 2 * HOUR);
  await fleet.registry.expectFiles('beta-invoices', 1002, HOUR, Date.now() - 60_000, true);
  await fleet.registry.expectFiles('zeta-sftp', 1006, HOUR, Date.now() - 3 * HOUR);
  await fleet.health.update('beta-invoices', {
    runId: SEEDED.failedRun,
    failing: ['run-stopped:ACCOUNT_NOT_WRITABLE'],
  });
  await fleet.health.updateStale('zeta-sftp', true);
}
