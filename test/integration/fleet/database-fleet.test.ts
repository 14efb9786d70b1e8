import { readFileSync, writeFileSync } from 'node:fs';
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { RedisCursorStore } from '../../../src/fleet/cursor-store.js';
import type { ImportJobData } from '../../../src/fleet/import-job.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { syncSchedulers } from '../../../src/fleet/scheduler.js';
import { bookings, databaseFeedFile, TableDouble } from '../../support/database-double.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';

/**
 * Issue 29 in the fleet: a database feed's import reads after the position in Redis from whichever
 * worker takes it, the position travels with the run to its finishing pass and is stored there,
 * and one import per feed runs at a time. The database's READING is a test double, which records the
 * position each read starts after (the real reader in the fleet: database-faults-fleet.test.ts);
 * Redis, BullMQ, the workers and the sandbox are real.
 */
const world = fleetTestWorld();
const LABEL = 'erp.bank_bookings';
const cursorOf = { column: 'updated_at', tieBreaker: 'id' };

describe('a database feed in the fleet', () => {
  it('reads after the stored position; the position is stored by the finishing pass, not before', async () => {
    const fleet = world.start();
    const cursor = new RedisCursorStore(fleet.connection, fleetKeys(fleet.config.prefix));
    const table = new TableDouble(LABEL, bookings('fleet', [1, 2, 3]), cursorOf);
    // The run's chunk is held back until the test has looked: its reading pass is over by then.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reachedWrite: () => void = () => {};
    const writing = new Promise<void>((resolve) => {
      reachedWrite = resolve;
    });
    fleet.worker(2, {
      openDatabase: () => table,
      beforeRequest: async (start) => {
        if (start.operation !== 'createTransactionsBulk') return;
        reachedWrite();
        await held;
      },
    });
    const feedFile = databaseFeedFile('db-fleet', LABEL);
    const [first] = await fleet.enqueue(feedFile);
    expect(first).toMatchObject({ file: LABEL, enqueued: 'new' });
    await writing;
    // Read, not finished: the range read is kept in the job for the finishing pass; no position yet.
    const job = (await fleet.queues.imports.getJob(String(first?.runId))) as Job<ImportJobData> | undefined;
    expect(job?.data.read?.cursor).toEqual({ to: { column: '2026-11-01 10:00:03.123456', tieBreaker: '3' } });
    expect(await cursor.load('db-fleet')).toBeUndefined();
    release();
    const summary = await fleet.finished(String(first?.runId));
    expect(summary.counts.created).toBe(3);
    expect(summary.files.map((f) => f.path)).toEqual([LABEL]);
    const position = { column: '2026-11-01 10:00:03.123456', tieBreaker: '3' };
    expect(await cursor.load('db-fleet')).toEqual(position);
    expect((await fleet.outcomes(String(first?.runId))).map((o) => `${o.file}:${o.key}`)).toEqual([
      `${LABEL}:1`,
      `${LABEL}:2`,
      `${LABEL}:3`,
    ]);

    table.rows.push(...bookings('fleet', [4]));
    const [second] = await fleet.enqueue(feedFile);
    const next = await fleet.finished(String(second?.runId));
    expect(table.reads).toEqual([undefined, position]);
    expect(next.counts.created).toBe(1);
    expect(await cursor.load('db-fleet')).toEqual({ column: '2026-11-01 10:00:04.123456', tieBreaker: '4' });
  });

  it('one import per feed at a time: a tick while one runs enqueues nothing; its finish frees the feed', async () => {
    const fleet = world.start();
    const table = new TableDouble(LABEL, bookings('once', [1, 2]), cursorOf);
    const feedFile = databaseFeedFile('db-once', LABEL);
    // No worker yet: the first run waits in the queue, holding the feed.
    const [first] = await fleet.enqueue(feedFile);
    const [second] = await fleet.enqueue(feedFile, { reimport: true });
    expect(first?.enqueued).toBe('new');
    expect(second).toMatchObject({
      enqueued: false,
      reason: 'an import of the feed is running',
      runId: first?.runId,
    });
    fleet.worker(2, { openDatabase: () => table });
    await fleet.finished(String(first?.runId));
    expect(table.reads).toEqual([undefined]);
    const [third] = await fleet.enqueue(feedFile, { reimport: true });
    expect(third?.enqueued).toBe('reimport');
    const again = await fleet.finished(String(third?.runId));
    // --reimport: from the start, whatever position is stored.
    expect(table.reads).toEqual([undefined, undefined]);
    expect(again.counts.skipped).toBe(2);
  });

  it('the scheduler fires a database feed on its cron: each run reads the rows after the last', async () => {
    const fleet = world.start();
    const table = new TableDouble(LABEL, bookings('cron', [1, 2, 3]), cursorOf);
    const feedFile = databaseFeedFile('db-cron', LABEL);
    writeFileSync(feedFile, `${readFileSync(feedFile, 'utf8')}schedule: "*/1 * * * * *"\n`);
    fleet.worker(2, { openDatabase: () => table });
    await syncSchedulers(fleet.queues.ticks, [await loadFeedFile(feedFile)]);
    const runsDone = async (count: number) => {
      const deadline = Date.now() + HANG_GUARD_MS;
      for (;;) {
        const runs = await fleet.store.list(10, 'db-cron');
        const done = runs.filter((r) => r.summary !== undefined);
        if (done.length >= count || Date.now() > deadline) return done;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const [first] = await runsDone(1);
    expect(first?.summary?.counts.created).toBe(3);
    table.rows.push(...bookings('cron', [4]));
    // A later tick's run reads only the new row (ticks meanwhile read nothing new: 0 records).
    const deadline = Date.now() + HANG_GUARD_MS;
    let created = 0;
    while (created < 4 && Date.now() < deadline) {
      const runs = await runsDone(2);
      created = runs.reduce((sum, r) => sum + (r.summary?.counts.created ?? 0), 0);
      if (created < 4) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(created).toBe(4);
    expect(table.reads[0]).toBeUndefined();
    expect(table.reads.slice(1).every((after) => after !== undefined)).toBe(true);
    await syncSchedulers(fleet.queues.ticks, []);
  });

  it('a repair (reconcile --repair --fleet) reads every row from the start, whatever lines it names', async () => {
    const fleet = world.start();
    const table = new TableDouble(LABEL, bookings('repair', [1, 2, 3]), cursorOf);
    const feedFile = databaseFeedFile('db-repair', LABEL);
    fleet.worker(2, { openDatabase: () => table });
    const [first] = await fleet.enqueue(feedFile);
    await fleet.finished(String(first?.runId));
    // The reconcile's lines are a read's ordinals: they name no row of another read.
    const [repair] = await fleet.enqueue(feedFile, { repair: new Map([[LABEL, [2]]]), repairOf: 'rec-1' });
    expect(repair?.enqueued).toBe('repair');
    const repaired = await fleet.finished(String(repair?.runId));
    expect(table.reads).toEqual([undefined, undefined]);
    expect(repaired.counts.skipped).toBe(3);
  });

  it('a replayed reading pass (its worker died while reading) stores no position: the next run reads those rows again', async () => {
    const fleet = world.start();
    const cursor = new RedisCursorStore(fleet.connection, fleetKeys(fleet.config.prefix));
    const table = new TableDouble(LABEL, bookings('replay', [1, 2]), cursorOf);
    const feedFile = databaseFeedFile('db-replay', LABEL);
    const [first] = await fleet.enqueue(feedFile);
    // What a first reading pass leaves in its job before it reads (the worker then died).
    const job = (await fleet.queues.imports.getJob(String(first?.runId))) as Job<ImportJobData> | undefined;
    await job?.updateData({ ...job.data, reading: true });
    fleet.worker(2, { openDatabase: () => table });
    const summary = await fleet.finished(String(first?.runId));
    expect(summary.counts.created).toBe(2);
    expect(await cursor.load('db-replay')).toBeUndefined();
    const [second] = await fleet.enqueue(feedFile);
    expect((await fleet.finished(String(second?.runId))).counts.skipped).toBe(2);
    expect(table.reads).toEqual([undefined, undefined]);
    expect(await cursor.load('db-replay')).toEqual({ column: '2026-11-01 10:00:02.123456', tieBreaker: '2' });
  });
});
