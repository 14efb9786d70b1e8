import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { queueChunk } from '../../../src/fleet/chunk-job.js';
import { ChunkRecordStore } from '../../../src/fleet/chunk-records.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import type { RecordOf } from '../../../src/sources/record-of.js';
import type { Chunk } from '../../../src/sync/chunk.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';

const world = fleetTestWorld();

/** A one-record chunk of a run that exists only in this test. */
function oneRecordChunk(runId: string): Chunk {
  const record: RecordOf<'transactions'> = {
    file: '/exports/chunk-records.csv',
    line: 2,
    externalId: 'cr-1',
    derivedId: false,
    payload: {
      externalId: 'cr-1',
      bookingDate: '2026-02-05',
      amount: -12.5,
      currency: 'EUR',
      purpose: 'test',
    },
    amount: '-12.50',
  };
  return {
    runId,
    feed: 'chunk-records',
    kind: 'transactions',
    accountId: 1001,
    seq: 1,
    settings: { mode: 'upsert', emptyCellClears: false, mappedFields: [], ofKind: { bankAccountId: 1 } },
    records: [record],
  };
}

/** Polls the job until BullMQ has finished with it one way or the other; then reads it. */
async function settled(fleet: ReturnType<typeof world.start>, jobId: string) {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    // The state first, the job after: a job read before it failed would not show why it failed.
    const state = await fleet.queues.chunks.getJobState(jobId);
    if (state === 'completed' || state === 'failed' || state === 'unknown')
      return { job: await fleet.queues.chunks.getJob(jobId), state };
    if (Date.now() > deadline) throw new Error(`chunk job ${jobId} still ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('chunk records wait beside their jobs', () => {
  it('leaves neither records nor chunk jobs behind a finished run', async () => {
    const fleet = world.start();
    const exp = transactionsExport({ rows: 2_500, name: 'cr-run', concurrency: 2, excludedRows: [] });
    fleet.worker(4);
    const [enqueued] = await fleet.enqueue(exp.feedFile);
    const summary = await fleet.finished(String(enqueued?.runId));
    expect(summary.counts).toMatchObject({ created: 2_497, rejected: 3, failed: 0 });
    const left = await fleet.connection.keys(fleetKeys(fleet.config.prefix).chunkRecords('*'));
    expect(left).toEqual([]);
    const counts = await fleet.queues.chunks.getJobCounts('completed', 'failed', 'waiting', 'delayed');
    expect(counts).toEqual({ completed: 0, failed: 0, waiting: 0, delayed: 0 });
  });

  it('keeps the records out of the job data', async () => {
    const fleet = world.start();
    const store = new ChunkRecordStore(fleet.connection, fleetKeys(fleet.config.prefix), 60_000);
    const chunk = oneRecordChunk('cr-data');
    await queueChunk(fleet.queues.chunks, store, chunk, 2, { jobId: 'cr-data-1' });
    const job = await fleet.queues.chunks.getJob('cr-data-1');
    expect(job?.data.chunk.records).toBe(1);
    expect(JSON.stringify(job?.data)).not.toContain('cr-1');
    expect(await store.get('cr-data-1')).toEqual(chunk.records);
  });

  it('stores the file path of a chunk once, not in each record', async () => {
    const fleet = world.start();
    const keys = fleetKeys(fleet.config.prefix);
    const store = new ChunkRecordStore(fleet.connection, keys, 60_000);
    const one = oneRecordChunk('cr-file').records[0];
    if (!one) throw new Error('no record');
    const records = [2, 3, 4].map((line) => ({ ...one, line, externalId: `cr-${line}` }));
    await store.put('cr-file-1', records);
    // Stored deflated behind a 0x00 byte.
    const packed = await fleet.connection.getBuffer(keys.chunkRecords('cr-file-1'));
    expect(packed?.[0]).toBe(0);
    const raw = inflateRawSync((packed ?? Buffer.alloc(1)).subarray(1)).toString('utf8');
    expect(raw.split(one.file).length - 1).toBe(1);
    expect(await store.get('cr-file-1')).toEqual(records);
    // Records of several files (never made by an import today) are kept as they are.
    const mixed = [records[0], { ...one, file: '/exports/other.csv' }] as typeof records;
    await store.put('cr-file-2', mixed);
    expect(await store.get('cr-file-2')).toEqual(mixed);
    // Records a previous version stored as plain JSON text are still read.
    const { file: _, ...withoutFile } = one;
    await fleet.connection.set(
      keys.chunkRecords('cr-file-3'),
      JSON.stringify({ file: one.file, records: [withoutFile] }),
    );
    expect(await store.get('cr-file-3')).toEqual([one]);
  });

  it("stores a batch's split once, not in each of its parts; read back as each part's own", async () => {
    const fleet = world.start();
    const keys = fleetKeys(fleet.config.prefix);
    const store = new ChunkRecordStore(fleet.connection, keys, 60_000);
    const one = oneRecordChunk('cr-split').records[0];
    if (!one) throw new Error('no record');
    const split = Array.from({ length: 1000 }, (_, i) => `-${i + 1}.25`).join(' ');
    const booking = {
      reference: 'R-7',
      account: 'DE89',
      amount: '-1',
      date: '2026-02-05',
      line: 2,
      others: ['R-7'],
    };
    const parts = [1, 2, 3].map((n) => ({ ...one, externalId: `R-7/#${n}`, booking: { ...booking, split } }));
    const records = [...parts, { ...one, booking: { ...booking, split: '-1.00 -2.00' } }, one];
    await store.put('cr-split-1', records);
    const packed = await fleet.connection.getBuffer(keys.chunkRecords('cr-split-1'));
    const raw = inflateRawSync((packed ?? Buffer.alloc(1)).subarray(1)).toString('utf8');
    expect(raw.split(split).length - 1).toBe(1);
    expect(await store.get('cr-split-1')).toEqual(records);
  });

  it('a replay after the outcomes were stored completes without a request', async () => {
    const fleet = world.start();
    const store = new ChunkRecordStore(fleet.connection, fleetKeys(fleet.config.prefix), 60_000);
    const chunk = oneRecordChunk('cr-replay');
    // What a worker that died after storing the outcomes (and deleting the records) left behind.
    await fleet.store
      .handle('cr-replay', 'chunk:1')
      .report.record([
        { file: chunk.records[0]?.file ?? '', line: 2, outcome: 'created', externalId: 'cr-1' },
      ]);
    await queueChunk(fleet.queues.chunks, store, chunk, 2, { jobId: 'cr-replay-1' });
    await store.delete('cr-replay-1');
    fleet.worker(2);
    const { state } = await settled(fleet, 'cr-replay-1');
    // Completed chunk jobs are removed at once (unknown to BullMQ by then).
    expect(['completed', 'unknown']).toContain(state);
    expect(world.requests()).toEqual([]);
    expect(world.transactions()).toEqual([]);
  });

  it('a chunk whose records are gone and never settled fails for good, naming the chunk', async () => {
    const fleet = world.start();
    const store = new ChunkRecordStore(fleet.connection, fleetKeys(fleet.config.prefix), 60_000);
    await queueChunk(fleet.queues.chunks, store, oneRecordChunk('cr-lost'), 2, { jobId: 'cr-lost-1' });
    await store.delete('cr-lost-1');
    fleet.worker(2);
    const { job, state } = await settled(fleet, 'cr-lost-1');
    expect(state).toBe('failed');
    expect(job?.failedReason).toMatch(/records of chunk 1 are gone from Redis/);
    // Unrecoverable: no attempt is wasted on records that cannot come back.
    expect(job?.attemptsMade).toBe(1);
    expect(world.requests()).toEqual([]);
  });
});
