import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { RedisRunStore, type RunMeta } from '../../../src/fleet/run-store.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { testRedis } from '../../support/redis.js';

const redis = testRedis();
afterAll(() => redis.cleanup());

const meta = (runId: string, feed: string, startedAt: string): RunMeta => ({
  runId,
  feed,
  kind: 'transactions',
  accountId: 1001,
  file: `/exports/${feed}.csv`,
  sha256: 'ab'.repeat(32),
  dryRun: false,
  startedAt,
});

describe('RedisRunStore.list', () => {
  it('lists the latest runs newest first, with their summaries, per feed, skipping expired runs', async () => {
    const client = redis.connect();
    const keys = fleetKeys(redis.newPrefix());
    const store = new RedisRunStore(client, keys, 86_400_000);
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    await store.create(meta('r1', 'bank', at(30)));
    await store.create(meta('r2', 'invoices', at(20)));
    await store.create(meta('r3', 'bank', at(10)));
    await store.create(meta('gone', 'bank', at(5)));
    const summary = { runId: 'r1', feed: 'bank', state: 'completed', files: [] } as unknown as RunSummary;
    await store.finish(summary);
    // A run whose hash expired before its index entry: listed no more.
    await client.del(keys.run('gone'));

    const all = await store.list(10);
    expect(all.map((l) => l.meta.runId)).toEqual(['r3', 'r2', 'r1']);
    expect(all.find((l) => l.meta.runId === 'r1')?.summary).toEqual(summary);
    expect(all.find((l) => l.meta.runId === 'r3')).not.toHaveProperty('summary');
    expect((await store.list(10, 'bank')).map((l) => l.meta.runId)).toEqual(['r3', 'r1']);
    expect((await store.list(1, 'invoices')).map((l) => l.meta.runId)).toEqual(['r2']);
  });
});

describe('RedisRunStore.claimExternalIds (issue 18 case 2, fleet)', () => {
  const rec = (externalId: string, file: string, line: number, amount: number) =>
    ({ file, line, externalId, derivedId: false, payload: { externalId, amount } }) as never;

  it('first wins across import jobs of one run; the same line again (a replay) is still the first; other runs are independent', async () => {
    const client = redis.connect();
    const keys = fleetKeys(redis.newPrefix());
    const store = new RedisRunStore(client, keys, 60_000);
    const jan = store.handle('run-1', 'import');
    const feb = store.handle('run-1', 'import');
    expect(
      await jan.claimExternalIds?.('invoices', [rec('A', 'jan.csv', 2, 1), rec('B', 'jan.csv', 3, 2)]),
    ).toEqual([undefined, undefined]);
    expect(
      await feb.claimExternalIds?.('invoices', [
        rec('A', 'feb.csv', 7, 1),
        rec('B', 'feb.csv', 8, 99),
        rec('C', 'feb.csv', 9, 3),
      ]),
    ).toEqual([
      { file: 'jan.csv', line: 2, sameContent: true },
      { file: 'jan.csv', line: 3, sameContent: false },
      undefined,
    ]);
    // A replayed import claims its own lines again: still the first.
    expect(await jan.claimExternalIds?.('invoices', [rec('A', 'jan.csv', 2, 1)])).toEqual([undefined]);
    // Another run starts afresh, and the run's claims expire with it.
    expect(
      await store.handle('run-2', 'import').claimExternalIds?.('invoices', [rec('A', 'feb.csv', 7, 1)]),
    ).toEqual([undefined]);
    expect(await client.pttl(keys.runIds('run-1'))).toBeGreaterThan(0);
  });
});

describe('RedisRunStore.outcomesInOrder (issue 11 point 8, fleet report)', () => {
  it('reads a run whose batches were stored out of order back in line order, through a spill file', async () => {
    const client = redis.connect();
    const store = new RedisRunStore(client, fleetKeys(redis.newPrefix()), 86_400_000);
    const outcome = (line: number, result: 'created' | 'rejected' = 'created') => ({
      file: '/exports/bank.csv',
      line,
      externalId: `T-${line}`,
      outcome: result,
    });
    const lines = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => outcome(from + i));
    // Chunks finish in any order; rejected rows of the import are stored in a batch of their own.
    await store.handle('ordered', 'chunk:3').report.record(lines(2001, 2500));
    await store.handle('ordered', 'chunk:1').report.record(lines(2, 1000));
    await store
      .handle('ordered', 'import')
      .report.record([outcome(1, 'rejected'), outcome(1500, 'rejected')]);
    await store.handle('ordered', 'chunk:2').report.record([...lines(1001, 1499), ...lines(1501, 2000)]);

    const arrival: number[] = [];
    for await (const o of store.outcomes('ordered')) arrival.push(o.line);
    // As stored, batch by batch: never in line order for these batches, whatever order HSCAN takes
    // (line 1 and line 1500 share a batch) — what `report` printed before.
    expect(arrival).toHaveLength(2500);
    expect(arrival).not.toEqual([...arrival].sort((a, b) => a - b));

    const spill = join(mkdtempSync(join(tmpdir(), 'erp-bridge-run-store-')), 'outcomes.spill');
    const ordered: number[] = [];
    for await (const o of store.outcomesInOrder('ordered', spill)) ordered.push(o.line);
    expect(ordered).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    // The spill file is gone once read.
    expect(existsSync(spill)).toBe(false);
  });
});
