import { rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/errors.js';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { enqueueFeed } from '../../../src/fleet/producer.js';
import { createLogger } from '../../../src/logging/logger.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { until } from '../../support/worker-process.js';

const world = fleetTestWorld({ latency: { ms: 5, jitterMs: 0 } });

type Fleet = ReturnType<typeof world.start>;

/** Adds a job by hand (as the dashboard or redis-cli could) and waits until it failed; its reason and attempts. */
async function handMadeJob(fleet: Fleet, id: string, data: unknown) {
  // biome-ignore lint/suspicious/noExplicitAny: a hostile payload, deliberately not of the job type
  await fleet.queues.imports.add('import-file', data as any, { jobId: id });
  await until(
    async () => (await fleet.queues.imports.getJob(id))?.failedReason !== undefined,
    HANG_GUARD_MS,
    `${id} failed`,
  );
  const job = await fleet.queues.imports.getJob(id);
  return { state: await job?.getState(), reason: String(job?.failedReason), attempts: job?.attemptsMade };
}

describe('issue 18 case 10: jobs carry references, not authority', () => {
  it('case 10: a hand-made job with its own feed definition reading /etc/passwd fails for good; nothing is created', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const exp = transactionsExport({ rows: 5, name: 'auth-inline', accountId: 1002 });
    const { feed } = await loadFeedFile(exp.feedFile);
    const failed = await handMadeJob(fleet, 'evil-inline', {
      runId: 'evil-inline',
      feed: { ...feed, source: { ...feed.source, path: '/etc/passwd' } },
      file: '/etc/passwd',
      dryRun: false,
    });
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.reason).toMatch(/invalid import-file payload: feed/);
    expect(world.transactions(1002)).toEqual([]);
  });

  it('case 10: a job naming a real feed but a foreign file fails for good naming the glob', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const exp = transactionsExport({ rows: 5, name: 'auth-foreign', accountId: 1002 });
    const ref = join(exp.dir.slice(tmpdir().length + 1), 'feed.yaml');
    const failed = await handMadeJob(fleet, 'evil-file', {
      runId: 'evil-file',
      feed: ref,
      file: '/etc/passwd',
    });
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.reason).toContain('/etc/passwd is not an export of feed auth-foreign');
    expect(failed.reason).toContain('source.path glob');
    expect(world.transactions(1002)).toEqual([]);
  });

  it('case 10: feed references that leave the feed directory are refused (.., absolute, symlink)', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const outside = transactionsExport({ rows: 5, name: 'auth-outside', accountId: 1002 });
    const link = join(tmpdir(), `erp-bridge-auth-link-${process.pid}.yaml`);
    symlinkSync('/etc/hostname', link);
    for (const [id, ref] of [
      ['evil-dotdot', '../../etc/passwd.yaml'],
      ['evil-absolute', '/etc/feed.yaml'],
      ['evil-symlink', link.slice(tmpdir().length + 1)],
    ] as const) {
      const failed = await handMadeJob(fleet, id, {
        runId: id,
        feed: ref,
        file: join(outside.dir, 'umsaetze.csv'),
      });
      expect(failed, id).toMatchObject({ state: 'failed', attempts: 1 });
      expect(failed.reason, id).toMatch(
        /feed reference .* (does not name a feed file inside|leads out of) the worker's feed directory/,
      );
    }
    expect(world.transactions(1002)).toEqual([]);
    rmSync(link);
  });

  it('the producer names the feed by reference, and refuses a feed file outside the feed directory', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const exp = transactionsExport({ rows: 20, name: 'auth-ok', invalidRows: [], excludedRows: [] });
    const [run] = await fleet.enqueue(exp.feedFile);
    const job = await fleet.queues.imports.getJob(String(run?.runId));
    expect(job?.data.feed).toBe(`${exp.dir.slice(tmpdir().length + 1)}/feed.yaml`);
    expect((await fleet.finished(String(run?.runId))).counts.created).toBe(20);
    await expect(
      enqueueFeed(
        await loadFeedFile(exp.feedFile),
        {},
        {
          feedsDir: join(tmpdir(), 'elsewhere'),
          registry: fleet.registry,
          store: fleet.store,
          imports: fleet.queues.imports,
          logger: createLogger({ level: 'silent' }),
          now: Date.now,
        },
      ),
    ).rejects.toThrow(ConfigError);
  });
});
