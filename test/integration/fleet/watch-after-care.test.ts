import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { FileRegistry } from '../../../src/fleet/file-registry.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import type { EnqueueResult } from '../../../src/fleet/producer.js';
import { openQueues } from '../../../src/fleet/queues.js';
import { connectRedis } from '../../../src/fleet/redis.js';
import { RedisRunStore } from '../../../src/fleet/run-store.js';
import { FeedWatch } from '../../../src/fleet/watch.js';
import { createLogger } from '../../../src/logging/logger.js';
import { type fleetHarness, fleetTestWorld } from '../../support/fleet-harness.js';
import { globbedExport } from '../../support/generated-exports.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { cliProcesses, fleetProcessEnv, SLOW_MACHINE_TIMEOUT_MS } from '../../support/worker-process.js';

const world = fleetTestWorld({ latency: { ms: 5, jitterMs: 0 } });
const cli = cliProcesses();

const exportWith = (name: string, sourceKeys: string[], topLevel: string[] = [], rows = 5) =>
  globbedExport(name, { sourceKeys, topLevel, rows });

/** A scheduler replica: its own Redis connection, queues, registry and run store, and its watch. */
function replica(fleet: ReturnType<typeof fleetHarness>) {
  const connection = connectRedis(fleet.config.redisUrl, 'test-scheduler');
  const keys = fleetKeys(fleet.config.prefix);
  const queues = openQueues(connection, fleet.config.prefix, () => {});
  const logger = createLogger({ level: 'silent' });
  const watch = new FeedWatch(
    {
      feedsDir: fleet.config.feedsDir,
      registry: new FileRegistry(connection, keys),
      store: new RedisRunStore(connection, keys, fleet.config.runRetentionMs),
      imports: queues.imports,
      logger,
      now: () => Date.now(),
    },
    logger,
  );
  return {
    watch,
    close: async () => {
      await watch.close();
      await queues.close();
      await connection.quit();
    },
  };
}

const enqueued = (results: EnqueueResult[][]) =>
  results.flat().flatMap((r) => (r.enqueued === false ? [] : [`${r.file} ${r.enqueued}`]));

describe('the scheduler watch (watch.everySeconds), two replicas on one Redis', () => {
  it('each file that arrives is enqueued once, whichever replica sees it first', async () => {
    const fleet = world.start();
    // Only the first poll of each replica comes from its timer; the test polls on its own below.
    const exp = exportWith(
      'watch-two',
      ['arrival: { type: stable, stableAfterSeconds: 0 }'],
      ['watch: { everySeconds: 3600 }'],
    );
    const loaded = await loadFeedFile(exp.feedFile);
    const a = replica(fleet);
    const b = replica(fleet);
    try {
      a.watch.update([loaded]);
      b.watch.update([loaded]);
      const results: EnqueueResult[][] = [];
      // Both replicas poll at the same moment, three times: the first poll of a stable feed only
      // notes what it saw, later ones find it unchanged.
      for (let round = 0; round < 3; round++)
        results.push(...(await Promise.all([a.watch.poll(loaded.file), b.watch.poll(loaded.file)])));
      // The replicas' own first polls (their timers) race these: the run may be theirs.
      expect(enqueued(results).length).toBeLessThanOrEqual(1);
      const runs = await fleet.store.list(10, 'watch-two');
      expect(runs.map((r) => r.meta.file)).toEqual([exp.file]);

      // A second export arrives: one run more, none for the first again.
      const second = join(exp.dir, 'umsaetze-2.csv');
      writeFileSync(second, readFileSync(exp.file));
      const later: EnqueueResult[][] = [];
      for (let round = 0; round < 3; round++)
        later.push(...(await Promise.all([a.watch.poll(loaded.file), b.watch.poll(loaded.file)])));
      expect(enqueued(later)).toEqual([`${second} new`]);
      expect((await fleet.store.list(10, 'watch-two')).map((r) => r.meta.file).sort()).toEqual(
        [exp.file, second].sort(),
      );
      expect((await fleet.queues.imports.getJobCounts('wait', 'active', 'completed', 'delayed')).wait).toBe(
        2,
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('stops watching a feed whose file lost its watch key, and starts one that gained it', async () => {
    const fleet = world.start();
    const exp = exportWith('watch-keys', [], ['watch: { everySeconds: 3600 }']);
    const loaded = await loadFeedFile(exp.feedFile);
    const a = replica(fleet);
    try {
      a.watch.update([loaded]);
      expect(await a.watch.poll(loaded.file)).toMatchObject([{ enqueued: expect.anything() }]);
      writeFileSync(exp.feedFile, readFileSync(exp.feedFile, 'utf8').replace(/^watch: .*$/m, ''));
      a.watch.update([await loadFeedFile(exp.feedFile)]);
      expect(await a.watch.poll(loaded.file)).toEqual([]);
    } finally {
      await a.close();
    }
  });
});

describe('two `erp-bridge scheduler` processes watching one feed (every second)', () => {
  it(
    'enqueue each file once between them, as files arrive',
    async () => {
      const fleet = world.start();
      const exp = exportWith('watch-cli', [], ['watch: { everySeconds: 1 }']);
      const env = fleetProcessEnv(fleet.config, world.sandbox());
      // The feed folder is the export's own temp folder (the feed file lies beside its export).
      const schedulers = [0, 1].map(() =>
        cli.start(['scheduler', '--feeds', exp.dir, '--rescan', '3600'], env),
      );
      const runsOf = async () => (await fleet.store.list(20, 'watch-cli')).map((r) => r.meta.file).sort();
      const until = async (want: string[]) => {
        const deadline = Date.now() + HANG_GUARD_MS;
        while (JSON.stringify(await runsOf()) !== JSON.stringify(want)) {
          if (Date.now() > deadline)
            throw new Error(`runs ${JSON.stringify(await runsOf())}, wanted ${JSON.stringify(want)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await until([exp.file]);
      const second = join(exp.dir, 'umsaetze-2.csv');
      writeFileSync(second, readFileSync(exp.file));
      await until([exp.file, second].sort());
      // Both schedulers are up and watching (each has read the feed folder), and a third file arrives.
      const polled = await Promise.all(
        schedulers.map((s) => s.log((e) => e.msg === 'schedulers in sync with the feed files')),
      );
      expect(polled).toHaveLength(2);
      const third = join(exp.dir, 'umsaetze-3.csv');
      writeFileSync(third, readFileSync(exp.file));
      await until([exp.file, second, third].sort());
      // The schedulers' log lines reach this process after the runs are stored (later still on a
      // loaded machine): wait for three, then check there are exactly those.
      const enqueued = () =>
        schedulers.flatMap((s) => s.logged('import run enqueued').map((e) => String(e.file)));
      const logDeadline = Date.now() + HANG_GUARD_MS;
      while (enqueued().length < 3 && Date.now() < logDeadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const enqueuedLines = enqueued();
      expect(enqueuedLines.sort()).toEqual([exp.file, second, third].sort());
      expect(await runsOf()).toEqual([exp.file, second, third].sort());
    },
    SLOW_MACHINE_TIMEOUT_MS,
  );
});

describe('enqueue and arrival', () => {
  it('a file without its marker is said waiting and not enqueued; with the marker it is', async () => {
    const fleet = world.start();
    const exp = exportWith('enqueue-marker', ['arrival: marker']);
    const waiting: { path: string; reason: string }[] = [];
    expect(await fleet.enqueue(exp.feedFile, { onWaiting: (w) => waiting.push(w) })).toEqual([]);
    expect(waiting).toEqual([{ path: exp.file, reason: `no marker file ${exp.file}.done yet` }]);
    writeFileSync(`${exp.file}.done`, '');
    expect(await fleet.enqueue(exp.feedFile)).toMatchObject([{ file: exp.file, enqueued: 'new' }]);
  });
});

describe('after-care on the fleet (source.afterRun)', () => {
  it('the file is moved only once finish-run stored the summary: never while the run is under way', async () => {
    const fleet = world.start();
    const exp = exportWith('fleet-care', ['afterRun: move'], [], 2_500);
    fleet.worker(2);
    const [run] = await fleet.enqueue(exp.feedFile);
    const runId = String(run?.runId);
    // Until the summary exists, the export must be where it was; checked at every step.
    const deadline = Date.now() + HANG_GUARD_MS;
    let steps = 0;
    while (!(await fleet.store.summary(runId))) {
      expect(existsSync(exp.file)).toBe(true);
      steps++;
      if (Date.now() > deadline) throw new Error('the run did not finish');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(steps).toBeGreaterThan(0);
    // The move follows the summary in the same job.
    for (const until = Date.now() + HANG_GUARD_MS; existsSync(exp.file) && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readdirSync(join(exp.dir, 'processed'))).toEqual(['umsaetze.csv']);
    expect((await fleet.store.summary(runId))?.counts.created).toBe(2_500);
  });

  it('a file owed a retry run stays until the retry; after the last retry failed records send it to failed/', async () => {
    const fleet = world.start({ failedRetryRuns: 1 });
    const exp = exportWith('fleet-care-retry', ['afterRun: move'], [], 300);
    world.faults({ script: [{ op: 'checkTransactionsExist', fault: '500', times: 8 }] });
    fleet.worker(1, { instantRetries: true });
    const [first] = await fleet.enqueue(exp.feedFile);
    expect((await fleet.finished(String(first?.runId))).counts.failed).toBe(300);
    expect(existsSync(exp.file)).toBe(true);
    const [retry] = await fleet.enqueue(exp.feedFile);
    expect(retry?.enqueued).toBe('retry');
    expect((await fleet.finished(String(retry?.runId))).counts.failed).toBe(300);
    for (const until = Date.now() + HANG_GUARD_MS; existsSync(exp.file) && Date.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(readdirSync(join(exp.dir, 'failed'))).toEqual(['umsaetze.csv']);
  });
});
