import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { schedulerPass, syncSchedulers } from '../../../src/fleet/scheduler.js';
import { createLogger } from '../../../src/logging/logger.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { captureLogs } from '../../support/log-capture.js';
import { cliProcesses, fleetProcessEnv, SLOW_MACHINE_TIMEOUT_MS } from '../../support/worker-process.js';

const world = fleetTestWorld();
const cli = cliProcesses();

describe('transiently failed records', () => {
  it('are retried by the next producer pass, only those lines, and then the file is done', async () => {
    const fleet = world.start();
    const exp = transactionsExport({ rows: 2_500, name: 'retry-a', invalidRows: [5], excludedRows: [] });
    // The first chunk's existence check fails four times: the client gives up after three retries.
    world.faults({ script: [{ op: 'checkTransactionsExist', fault: '500', times: 4 }] });
    fleet.worker(1, { instantRetries: true });
    const [first] = await fleet.enqueue(exp.feedFile);
    const firstSummary = await fleet.finished(String(first?.runId));
    // Chunks hold 1000 valid records: the first one spans rows 1-1001 (row 6 is rejected locally).
    expect(firstSummary.counts).toMatchObject({ created: 1_499, rejected: 1, failed: 1_000 });
    const failedLines = (await fleet.outcomes(String(first?.runId)))
      .filter((o) => o.outcome === 'failed')
      .map((o) => o.line);

    const [retry] = await fleet.enqueue(exp.feedFile);
    expect(retry?.enqueued).toBe('retry');
    const retrySummary = await fleet.finished(String(retry?.runId));
    // Only the failed lines ran again; the rejected one was not retried (its data must change).
    expect(retrySummary.counts).toMatchObject({ created: 1_000, rejected: 0, failed: 0, skipped: 0 });
    expect((await fleet.outcomes(String(retry?.runId))).map((o) => o.line)).toEqual(failedLines);

    const [done] = await fleet.enqueue(exp.feedFile);
    expect(done).toMatchObject({ enqueued: false, reason: 'already imported' });
    const runs = await fleet.store.list(10, 'retry-a');
    expect(runs.map((r) => r.meta.retryOf ?? null)).toEqual([first?.runId, null]);
  });

  it('stay failed (dead letter) after the configured number of retry runs', async () => {
    const fleet = world.start({ failedRetryRuns: 1 });
    const exp = transactionsExport({
      rows: 300,
      name: 'retry-b',
      invalidRows: [],
      excludedRows: [],
    });
    world.faults({ script: [{ op: 'checkTransactionsExist', fault: '500', times: 8 }] });
    fleet.worker(1, { instantRetries: true });
    const [first] = await fleet.enqueue(exp.feedFile);
    expect((await fleet.finished(String(first?.runId))).counts.failed).toBe(300);
    const [retry] = await fleet.enqueue(exp.feedFile);
    expect(retry?.enqueued).toBe('retry');
    expect((await fleet.finished(String(retry?.runId))).counts.failed).toBe(300);
    const [after] = await fleet.enqueue(exp.feedFile);
    expect(after).toMatchObject({ enqueued: false });
  });
});

describe('the scheduler', () => {
  it('fires a feed on its cron, and removes the scheduler when the feed loses its schedule', async () => {
    const fleet = world.start();
    const exp = transactionsExport({
      rows: 50,
      name: 'cron-a',
      invalidRows: [],
      excludedRows: [],
    });
    writeFileSync(
      exp.feedFile,
      `${(await import('node:fs')).readFileSync(exp.feedFile, 'utf8')}schedule: "*/1 * * * * *"\n`,
    );
    fleet.worker(2);
    const loaded = await loadFeedFile(exp.feedFile);
    const first = await syncSchedulers(fleet.queues.ticks, [loaded]);
    // Running it twice (two schedulers) changes nothing.
    const second = await syncSchedulers(fleet.queues.ticks, [loaded]);
    expect(second).toEqual(first);
    expect(first.upserted).toEqual([`feed:${loaded.file}`]);
    expect(await fleet.queues.ticks.getJobSchedulersCount()).toBe(1);

    const deadline = Date.now() + HANG_GUARD_MS;
    let runs = await fleet.store.list(5, 'cron-a');
    while (runs.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      runs = await fleet.store.list(5, 'cron-a');
    }
    expect(runs).toHaveLength(1);
    expect((await fleet.finished(runs[0]?.meta.runId ?? '')).counts.created).toBe(50);

    const gone = await syncSchedulers(fleet.queues.ticks, []);
    expect(gone.removed).toEqual([`feed:${loaded.file}`]);
    expect(await fleet.queues.ticks.getJobSchedulersCount()).toBe(0);
  });

  it('keeps the schedule of a feed file that turned broken and still syncs the others', async () => {
    const fleet = world.start();
    const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-feeds-'));
    const demo = readFileSync('config/feeds/demo/acme-bank.yaml', 'utf8');
    const feedYaml = (name: string) => demo.replace('name: demo-acme-bank', `name: ${name}`);
    const [a, b, c] = ['feed-a', 'feed-b', 'feed-c'].map((name) => join(dir, `${name}.yaml`)) as [
      string,
      string,
      string,
    ];
    writeFileSync(a, feedYaml('feed-a'));
    writeFileSync(b, feedYaml('feed-b'));
    const silent = createLogger({ level: 'silent' });
    expect((await schedulerPass(fleet.queues.ticks, dir, silent)).upserted).toEqual([
      `feed:${a}`,
      `feed:${b}`,
    ]);

    // feed-b gets a typo, feed-c arrives: c is scheduled, b keeps the schedule it had.
    writeFileSync(b, feedYaml('feed-b').replace('kind: transactions', 'kind: transactionz'));
    writeFileSync(c, feedYaml('feed-c'));
    const logs = captureLogs();
    const { feeds, ...pass } = await schedulerPass(fleet.queues.ticks, dir, logs.logger);
    expect(pass).toEqual({ upserted: [`feed:${a}`, `feed:${c}`], removed: [], broken: [b] });
    // The feeds read this pass (the scheduler's watch follows them); the broken one is not among them.
    expect(feeds.map((f) => f.file)).toEqual([a, c]);
    const ids = (await fleet.queues.ticks.getJobSchedulers(0, -1)).map((s) => s.key).sort();
    expect(ids).toEqual([`feed:${a}`, `feed:${b}`, `feed:${c}`]);
    const alert = logs.entries().find((line) => line.alert === true);
    expect(alert).toMatchObject({ level: 'error', file: b });
    expect(String(alert?.msg)).toContain('feed-b.yaml');

    // Once b is gone for good, its scheduler goes too.
    rmSync(b);
    expect((await schedulerPass(fleet.queues.ticks, dir, silent)).removed).toEqual([`feed:${b}`]);
  });

  it(
    '`scheduler --once` exits 2 naming a broken feed file, after scheduling the valid ones',
    async () => {
      const fleet = world.start();
      const dir = mkdtempSync(join(tmpdir(), 'erp-bridge-feeds-'));
      const good = join(dir, 'good.yaml');
      writeFileSync(good, readFileSync('config/feeds/demo/acme-bank.yaml', 'utf8'));
      writeFileSync(join(dir, 'broken.yaml'), 'name: broken\nkind: transactionz\n');
      const result = await cli.run(
        ['scheduler', '--feeds', dir, '--once'],
        fleetProcessEnv(fleet.config, world.sandbox()),
      );
      expect(result.code, result.describe()).toBe(2);
      expect(result.stdout).toContain('broken.yaml');
      const ids = (await fleet.queues.ticks.getJobSchedulers(0, -1)).map((s) => s.key);
      expect(ids).toEqual([`feed:${good}`]);
    },
    SLOW_MACHINE_TIMEOUT_MS,
  );
});
