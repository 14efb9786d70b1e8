import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reconcileExitCode } from '../../../src/cli/reconcile-screen.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { deflatedJson } from '../../../src/fleet/packed-json.js';
import { awaitReconcile } from '../../../src/fleet/reconcile-producer.js';
import { linesToRepair } from '../../../src/fleet/reconcile-repair.js';
import { RECONCILE_COLUMNS } from '../../../src/report-files/reconcile-files.js';
import type { AccountRecord } from '../../../src/sandbox/state.js';
import type { ReconcileLine } from '../../../src/sync/reconcile/reconcile.js';
import { runCli } from '../../support/cli-run.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { captureLogs } from '../../support/log-capture.js';
import { tenantFeeds } from '../../support/tenant-feeds.js';
import { until } from '../../support/worker-process.js';

const world = fleetTestWorld();

/** A tenant provisioned and its bank transactions synced through the fleet (real workers). */
async function provisioned(tag: string) {
  const fleet = world.start();
  const worker = fleet.worker(4);
  const feeds = tenantFeeds(tag, 3);
  for (const feed of [feeds.tenants, feeds.bank]) {
    const [run] = await fleet.enqueue(feed);
    const summary = await fleet.finished(String(run?.runId));
    expect(summary.counts).toMatchObject({ failed: 0, rejected: 0 });
  }
  const account = [...world.sandbox().runtime.state.accounts.values()].find(
    (a) => a.externalId === tag,
  ) as AccountRecord;
  return { fleet, feeds, account, worker };
}

async function storedLines(fleet: ReturnType<typeof world.start>, reconcileId: string) {
  const lines: ReconcileLine[] = [];
  for await (const line of fleet.reconciles.lines(reconcileId)) lines.push(line);
  return lines;
}

/** provisioned, then its transaction T-2 deleted in the service (the sandbox's admin endpoint). */
async function deleted(tag: string) {
  const provisionedTenant = await provisioned(tag);
  const { account } = provisionedTenant;
  const tx = world.transactions(account.id).find((t) => t.externalId === 'T-2');
  const res = await fetch(
    `${world.sandbox().authUrl}/_sandbox/accounts/${account.id}/transactions/${tx?.id}`,
    {
      method: 'DELETE',
    },
  );
  expect(res.status).toBe(200);
  return provisionedTenant;
}

describe('reconcile --fleet (a reconciles job run by a worker)', () => {
  it('an equal tenant: exit 0, and Redis holds the summary only (equal lines are counted, not stored)', async () => {
    const { fleet, feeds } = await provisioned('frc-eq');
    const done = await fleet.reconcile(feeds.bank);
    if (!('summary' in done)) throw new Error(`reconcile failed: ${done.failed}`);
    expect(done.summary).toMatchObject({
      reconcileId: done.reconcileId,
      state: 'equal',
      counts: { equal: 3, missing: 0, different: 0, extra: 0 },
      controlTotals: { source: { records: 3, amount: '13.03' }, service: { records: 3, amount: '13.03' } },
    });
    expect(done.reconcileId).toMatch(/^frc-eq-bank-reconcile-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    expect(reconcileExitCode(done.summary)).toBe(0);
    const keys = fleetKeys(fleet.config.prefix);
    expect(await fleet.connection.exists(keys.reconcileLines(done.reconcileId))).toBe(0);
    expect(await storedLines(fleet, done.reconcileId)).toEqual([]);
    // The summary expires with the runs.
    const ttl = await fleet.connection.pttl(keys.reconcile(done.reconcileId));
    expect(ttl).toBeGreaterThan(fleet.config.runRetentionMs - 60_000);
    expect(ttl).toBeLessThanOrEqual(fleet.config.runRetentionMs);
  });

  it('a transaction deleted in the service is named missing (exit 4); only the non-equal lines are stored', async () => {
    const { fleet, feeds } = await deleted('frc-del');
    const done = await fleet.reconcile(feeds.bank);
    if (!('summary' in done)) throw new Error(`reconcile failed: ${done.failed}`);
    expect(done.summary).toMatchObject({
      state: 'differences',
      counts: { equal: 2, missing: 1, different: 0, extra: 0 },
      controlTotals: { source: { records: 3 }, service: { records: 2 } },
    });
    expect(done.summary.firstDifferences).toEqual([
      expect.objectContaining({ verdict: 'missing', line: 3, externalId: 'T-2' }),
    ]);
    expect(reconcileExitCode(done.summary)).toBe(4);
    expect(await storedLines(fleet, done.reconcileId)).toEqual([
      {
        verdict: 'missing',
        file: expect.stringMatching(/bank\.csv$/),
        line: 3,
        externalId: 'T-2',
        amount: '11.01',
      },
    ]);
    const keys = fleetKeys(fleet.config.prefix);
    expect(await fleet.connection.pttl(keys.reconcileLines(done.reconcileId))).toBeGreaterThan(0);
  });

  it('repairs: an import run of only the missing line (noted as the repair of the reconcile), then equal', async () => {
    const { fleet, feeds, account } = await deleted('frc-rep');
    const found = await fleet.reconcile(feeds.bank);
    if (!('summary' in found)) throw new Error(`reconcile failed: ${found.failed}`);
    const lines = await linesToRepair(fleet.reconciles, found.reconcileId);
    expect([...lines.values()]).toEqual([[3]]);
    const [run, ...more] = await fleet.enqueue(feeds.bank, { repair: lines, repairOf: found.reconcileId });
    expect(more).toEqual([]);
    expect(run?.enqueued).toBe('repair');
    const summary = await fleet.finished(String(run?.runId));
    expect(summary.counts).toMatchObject({ created: 1, skipped: 0, failed: 0 });
    expect(await fleet.store.meta(String(run?.runId))).toMatchObject({ repairOf: found.reconcileId });
    expect(
      world
        .transactions(account.id)
        .map((t) => t.externalId)
        .sort(),
    ).toEqual(['T-1', 'T-2', 'T-3']);
    const again = await fleet.reconcile(feeds.bank);
    expect('summary' in again && again.summary).toMatchObject({ state: 'equal', counts: { equal: 3 } });
  });

  it('the CLI: exit 4 naming the deleted transaction, report <reconcileId> prints its line; --repair --fleet exit 0', async () => {
    const { fleet, feeds } = await deleted('frc-cli');
    const env = {
      REDIS_URL: fleet.config.redisUrl,
      ERP_BRIDGE_QUEUE_PREFIX: fleet.config.prefix,
      ERP_BRIDGE_FEEDS_DIR: fleet.config.feedsDir,
      PATH: process.env.PATH,
    };
    const found = await runCli(['reconcile', '--fleet', feeds.bank], env);
    expect(found.code, found.stderr).toBe(4);
    expect(found.stdout).toContain('frc-cli-bank: differences (bank account "frc-cli-giro"');
    expect(found.stdout).toContain('2 equal, 1 missing, 0 different, 0 extra in the service');
    expect(found.stdout).toMatch(/missing: .*bank\.csv:3 T-2/);
    const id = /report: erp-bridge report (\S+)/.exec(found.stdout)?.[1] ?? '';
    expect(id).toMatch(/^frc-cli-bank-reconcile-/);
    // The report and the refusals change nothing: their processes start side by side.
    const [report, filtered, inProcess, outside, noWait] = await Promise.all([
      runCli(['report', id], env),
      runCli(['report', id, '--outcome', 'failed'], env),
      runCli(['reconcile', '--no-wait', feeds.bank], env),
      runCli(['reconcile', '--fleet', '--feeds', join(fleet.config.feedsDir, 'elsewhere'), feeds.bank], env),
      runCli(['reconcile', '--fleet', '--repair', '--no-wait', feeds.bank], env),
    ]);
    expect(report.code, report.stderr).toBe(0);
    const [header, ...rows] = report.stdout.trim().split(/\r?\n/);
    expect(header).toBe(RECONCILE_COLUMNS.join(','));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`bank\\.csv,3,T-2,missing,,,,,11\\.01,,${id}$`));

    expect(filtered.code).toBe(2);
    expect(filtered.stderr).toContain(`${id} is a reconcile: --outcome filters a run's outcomes`);
    expect(inProcess.code).toBe(2);
    expect(inProcess.stderr).toContain('--no-wait and --feeds go with --fleet');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("not in the fleet's feed directory");
    expect(noWait.code).toBe(2);
    expect(noWait.stderr).toContain('drop --no-wait');

    const repaired = await runCli(['reconcile', '--fleet', '--repair', feeds.bank], env);
    expect(repaired.code, repaired.stdout + repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain('repair: completed: 1 created, 0 updated');
    expect(repaired.stdout).toMatch(/after the repair:\nfrc-cli-bank: equal/);
    // 300 s: seven CLI processes, each about 3 s of CPU to start (tsx and the command's modules),
    // took 50 s at load 14 on two cores one after another, over 100 s with more load.
  }, 300_000);

  it('--repair --fleet names each record it could not change, why, and what to do (a transaction edited in the service)', async () => {
    const { fleet, feeds, account } = await provisioned('frc-unch');
    const tx = world.transactions(account.id).find((t) => t.externalId === 'T-2');
    if (!tx) throw new Error('T-2 was not synced');
    tx.amount += 1;
    const env = {
      REDIS_URL: fleet.config.redisUrl,
      ERP_BRIDGE_QUEUE_PREFIX: fleet.config.prefix,
      ERP_BRIDGE_FEEDS_DIR: fleet.config.feedsDir,
      PATH: process.env.PATH,
    };
    const repaired = await runCli(['reconcile', '--fleet', '--repair', feeds.bank], env);
    expect(repaired.code, repaired.stdout + repaired.stderr).toBe(4);
    expect(repaired.stdout).toContain('repair: completed: 0 created, 0 updated, 1 skipped');
    // The same words as the in-process --repair (test/integration/cli/reconcile-cli.test.ts).
    expect(repaired.stdout).toMatch(
      /not changed: \S*bank\.csv:3 T-2: skipped: already in the service\n {4}what to do: the partner API has no update for bank transactions: change it in the service by hand/,
    );
    expect(repaired.stdout.match(/not changed:/g)).toHaveLength(1);
    expect(repaired.stdout).toMatch(/after the repair:\nfrc-unch-bank: differences/);
  });

  it('a worker shutting down mid-comparison releases the reconcile; another worker finishes it, no stopped summary', async () => {
    const { fleet, feeds, worker } = await provisioned('frc-shut');
    await worker.close();
    // The listing's first page is held 3 s: the first worker is still waiting for it when it closes.
    world.faults({ script: [{ op: 'listTransactions', fault: 'delay', delayMs: 3_000 }] });
    const logs = captureLogs();
    const first = fleet.worker(2, { logger: logs.logger });
    const pending = fleet.reconcile(feeds.bank);
    await until(async () => (await fleet.queues.reconciles.getActiveCount()) > 0, HANG_GUARD_MS, 'the job');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Lines an earlier attempt stored (a full batch is stored as it fills): the replay drops them.
    const [active] = await fleet.queues.reconciles.getActive();
    const linesKey = fleetKeys(fleet.config.prefix).reconcileLines(String(active?.id));
    const stale = { verdict: 'missing', file: 'bank.csv', line: 9, externalId: 'STALE' };
    await fleet.connection.rpush(linesKey, deflatedJson([stale]));
    expect(await first.close(200)).toEqual({ released: true });
    fleet.worker(2);
    const done = await pending;
    if (!('summary' in done)) throw new Error(`reconcile failed: ${done.failed}`);
    expect(done.summary).toMatchObject({ state: 'equal', counts: { equal: 3, missing: 0 } });
    expect(done.summary.stopReason).toBeUndefined();
    expect(await storedLines(fleet, done.reconcileId)).toEqual([]);
    // Released by the first worker, not failed (which would have used up one of its two attempts).
    const said = logs.entries().map((e) => e.msg);
    expect(said).toContain('worker shutting down: reconcile released to another worker');
    expect(said).not.toContain('job failed');
    expect((await fleet.queues.reconciles.getJob(done.reconcileId))?.attemptsMade ?? 0).toBeLessThanOrEqual(
      1,
    );
  });

  it('refuses a bad payload on the queue for good, naming the key', async () => {
    const fleet = world.start();
    fleet.worker(2);
    // A feed definition of its own instead of a reference, and a key the payload does not have.
    await fleet.queues.reconciles.add(
      'reconcile-feed',
      { reconcileId: 'bad-1', feed: { name: 'evil', kind: 'transactions' } } as never,
      { jobId: 'bad-1' },
    );
    await fleet.queues.reconciles.add(
      'reconcile-feed',
      { reconcileId: 'bad-2', feed: 'x.yaml', repair: true } as never,
      { jobId: 'bad-2' },
    );
    // A reference that leads out of the worker's feed directory.
    await fleet.queues.reconciles.add(
      'reconcile-feed',
      { reconcileId: 'bad-3', feed: '../../etc/feed.yaml' },
      { jobId: 'bad-3' },
    );
    const wait = {
      store: fleet.reconciles,
      reconciles: fleet.queues.reconciles,
      pollMs: 50,
      timeoutMs: HANG_GUARD_MS,
    };
    const first = await awaitReconcile('bad-1', wait);
    const second = await awaitReconcile('bad-2', wait);
    expect(first).toEqual({
      failed: expect.stringMatching(/^invalid reconcile-feed payload: feed: .*string/),
    });
    expect(second).toEqual({ failed: expect.stringMatching(/^invalid reconcile-feed payload: .*repair/) });
    expect(await awaitReconcile('bad-3', wait)).toEqual({
      failed: expect.stringContaining(
        `feed reference "../../etc/feed.yaml" does not name a feed file inside`,
      ),
    });
    // Refused for good: one attempt, not the queue's retries.
    expect((await fleet.queues.reconciles.getJob('bad-1'))?.attemptsMade).toBe(1);
    expect(await fleet.reconciles.summary('bad-1')).toBeUndefined();
  });
});
