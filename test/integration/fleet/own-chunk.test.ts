import { describe, expect, it } from 'vitest';
import { tenantKey } from '../../../src/gate/gate.js';
import { RedisGate } from '../../../src/gate/redis-gate.js';
import type { SyncMeter } from '../../../src/sync/meter.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';

const world = fleetTestWorld();

/** A file of one chunk (80 rows, 3 not sent) for feed `name`, tenant limit `concurrency`. */
const smallExport = (name: string, concurrency = 1) =>
  transactionsExport({ rows: 80, name, concurrency, invalidRows: [5], excludedRows: [9, 40] });

/** The import job's children: processed ones are chunk jobs that ran. */
async function childrenOf(fleet: ReturnType<typeof world.start>, runId: string) {
  const job = await fleet.queues.imports.getJob(runId);
  if (!job) throw new Error(`no import job ${runId}`);
  return job.getDependenciesCount();
}

/** The run's outcomes without what names the file's rows (the two runs below have other IDs). */
async function shapeOf(fleet: ReturnType<typeof world.start>, runId: string) {
  return (await fleet.outcomes(runId)).map((o) => ({
    line: o.line,
    outcome: o.outcome,
    code: 'code' in o ? o.code : undefined,
  }));
}

const created = (prefix: string) =>
  world
    .transactions(1001)
    .map((t) => t.externalId)
    .filter((id) => id?.startsWith(prefix));

/**
 * The most requests of chunks (existence checks, creates: one at a time per chunk) in flight at
 * once. The imports' own requests (the bank account) are not held by a tenant slot, in either path.
 */
function chunkRequestPeak(): number {
  const edges = world
    .requests()
    .filter((r) => r.operation === 'checkTransactionsExist' || r.operation === 'createTransactionsBulk')
    .flatMap((r) => [
      { at: r.at, step: 1 },
      { at: r.doneAt, step: -1 },
    ])
    // An answer before a request that arrived in the same millisecond.
    .sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let peak = 0;
  for (const edge of edges) {
    now += edge.step;
    peak = Math.max(peak, now);
  }
  return peak;
}

describe('a file of one chunk synced by its import job', () => {
  it('runs no chunk job when its tenant has a slot free, with the same report as through a chunk job', async () => {
    const fleet = world.start();
    fleet.worker(2);
    const own = smallExport('own-chunk-free');
    const [ownRun] = await fleet.enqueue(own.feedFile);
    const ownSummary = await fleet.finished(String(ownRun?.runId));
    expect((await childrenOf(fleet, String(ownRun?.runId))).processed).toBe(0);

    // The tenant's one slot held elsewhere: the chunk is queued as a child job and waits for it.
    const gate = new RedisGate({
      redis: () => fleet.connection.duplicate(),
      keyPrefix: fleet.config.prefix,
      leaseTtlMs: 10_000,
    });
    const lease = await gate.tryAcquire(tenantKey(1001), 1);
    if (!lease) throw new Error('no slot for the test');
    const queued = smallExport('own-chunk-busy');
    const [queuedRun] = await fleet.enqueue(queued.feedFile);
    const runId = String(queuedRun?.runId);
    while (!(await fleet.queues.chunks.getJob(`${runId}-1`)))
      await new Promise((resolve) => setTimeout(resolve, 20));
    await lease.release();
    await gate.close();
    const queuedSummary = await fleet.finished(runId);
    expect((await childrenOf(fleet, runId)).processed).toBe(1);

    expect(ownSummary.counts).toEqual(queuedSummary.counts);
    expect(ownSummary.counts).toMatchObject({ created: 77, failed: 0 });
    expect(await shapeOf(fleet, String(ownRun?.runId))).toEqual(await shapeOf(fleet, runId));
    expect(created('own-chunk-free-')).toHaveLength(77);
  });

  it('a replay after its chunk was stored skips the chunk and finishes the run: nothing sent twice', async () => {
    const fleet = world.start();
    let failures = 0;
    // The job dies right after the chunk's outcomes are stored, before the run is finished.
    const meter: SyncMeter = {
      recorded: () => {},
      chunkSynced: () => {
        if (failures++ === 0) throw new Error('the worker died here');
      },
    };
    fleet.worker(2, { meter });
    const exp = smallExport('own-chunk-replay');
    const [run] = await fleet.enqueue(exp.feedFile);
    const runId = String(run?.runId);
    const summary = await fleet.finished(runId);
    expect(failures).toBe(1);
    const job = await fleet.queues.imports.getJob(runId);
    expect(job?.attemptsStarted).toBeGreaterThanOrEqual(2);
    // The replay queued no chunk job (the batch was stored) and sent nothing again.
    expect((await childrenOf(fleet, runId)).processed).toBe(0);
    expect(world.requests().filter((r) => r.operation === 'createTransactionsBulk')).toHaveLength(1);
    expect(summary.counts).toMatchObject({ created: 77, failed: 0, rejected: 1 });
    expect((await fleet.outcomes(runId)).map((o) => o.line)).toEqual(exp.lines);
    expect(created('own-chunk-replay-')).toHaveLength(77);
  }, 60_000);

  it('a worker shutting down mid-sync releases the import; the replay syncs the chunk once', async () => {
    world.faults({ latency: { ms: 1_500, jitterMs: 0, ops: ['createTransactionsBulk'] } });
    const fleet = world.start({ jobLockMs: 2_000 });
    const first = fleet.worker(2);
    const exp = smallExport('own-chunk-shutdown');
    const [run] = await fleet.enqueue(exp.feedFile);
    const runId = String(run?.runId);
    while (!world.requests().some((r) => r.operation === 'checkTransactionsExist'))
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await first.close(200)).toEqual({ released: true });
    fleet.worker(2);
    const summary = await fleet.finished(runId);
    expect(summary.counts).toMatchObject({ failed: 0, rejected: 1 });
    // 77 sent, created or found created by the replay's existence check, and the 2 excluded rows.
    expect(summary.counts.created + summary.counts.skipped).toBe(79);
    expect((await fleet.outcomes(runId)).map((o) => o.line)).toEqual(exp.lines);
    // The replay is not a first pass: its chunk went through a chunk job.
    expect((await childrenOf(fleet, runId)).processed).toBe(1);
    const ids = created('own-chunk-shutdown-');
    expect(new Set(ids).size).toBe(77);
    expect(ids).toHaveLength(77);
  }, 60_000);

  it("keeps the tenant's limit with imports syncing their own chunks beside chunk jobs, across two workers", async () => {
    // Slow answers: imports find the tenant's slots taken and queue chunk jobs, which wait for one.
    world.faults({ latency: { ms: 150, jitterMs: 0 } });
    const fleet = world.start();
    fleet.worker(4);
    fleet.worker(4);
    const files = Array.from({ length: 8 }, (_, i) => smallExport(`own-chunk-limit-${i}`, 2));
    const runs = await Promise.all(files.map(async (exp) => (await fleet.enqueue(exp.feedFile))[0]));
    for (const run of runs) {
      const summary = await fleet.finished(String(run?.runId));
      expect(summary.counts).toMatchObject({ created: 77, failed: 0 });
    }
    const peak = chunkRequestPeak();
    expect(peak).toBeGreaterThanOrEqual(2);
    expect(peak).toBeLessThanOrEqual(2);
    expect(created('own-chunk-limit-')).toHaveLength(8 * 77);
  }, 60_000);
});
