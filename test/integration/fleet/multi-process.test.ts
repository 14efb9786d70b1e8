import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { OUTCOME_COLUMNS } from '../../../src/report-files/file-sink.js';
import { readSourceBytes, Source } from '../../../src/sources/formats/registry.js';
import { openBytes } from '../../../src/sources/raw-file.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import {
  answered,
  cliProcesses,
  enqueueExport,
  finishedExactlyOnce,
  SLOW_MACHINE_TIMEOUT_MS,
  startFleet,
} from '../../support/worker-process.js';

/**
 * The fleet as deployed: `erp-bridge worker` processes (children, from source) sharing one Redis,
 * the producer side in this process (same Redis and prefix), the sandbox in this process so its
 * state, stats and request log can be read. Fault-free behaviour here; kills and restarts in
 * multi-process-faults.test.ts.
 */
const world = fleetTestWorld();
const cli = cliProcesses();

describe('worker processes', { timeout: SLOW_MACHINE_TIMEOUT_MS }, () => {
  it('keep a tenant at its limit of chunks in flight, across processes, and create each record once', async () => {
    // Slow answers, so chunks queue up faster than they finish and the limit is really tested.
    // 500 ms, not 100: at load 18 on two cores the two processes' chunks never overlapped at 100.
    world.faults({ latency: { ms: 500, jitterMs: 0 } });
    const { fleet, workers } = await startFleet(world, cli, 2, { logLevel: 'debug' });
    const run = await enqueueExport(fleet, 'mp-limit', 6_000);
    const summary = await finishedExactlyOnce(world, fleet, run, workers);
    expect(summary.counts).toMatchObject({ created: 6_000, skipped: 0, failed: 0, rejected: 0 });
    // Both processes synced chunks: the limit held across them, not just within one.
    for (const worker of workers)
      expect(
        worker.entries.filter(answered('createTransactionsBulk')).length,
        worker.describe(),
      ).toBeGreaterThan(0);
    // >= 2: the run really had two chunks in flight at once; <= 2: never more than the limit.
    expect(world.sandbox().runtime.stats.snapshot().maxConcurrentByAccount['1001']).toBe(2);
  });

  it("obey a 429's Retry-After fleet-wide: no process sends the tenant's requests during the pause", async () => {
    // One chunk per process at a time: the two chunks in flight are in different processes.
    const { fleet, workers } = await startFleet(world, cli, 2, { concurrency: 1, logLevel: 'debug' });
    world.faults({
      latency: { ms: 20, jitterMs: 0 },
      script: [{ op: 'createTransactionsBulk', fault: '429', times: 1, retryAfterSeconds: 2 }],
    });
    const pauses = await pausesStored(fleet.config.redisUrl, fleet.config.prefix);
    const run = await enqueueExport(fleet, 'mp-429', 5_000);
    const summary = await finishedExactlyOnce(world, fleet, run, workers).finally(pauses.close);
    expect(summary.counts).toMatchObject({ created: 5_000, failed: 0 });

    const requests = world.requests();
    const limited = requests.filter((r) => r.status === 429);
    expect(limited).toHaveLength(1);
    const answeredAt = limited[0]?.doneAt ?? Number.NaN;
    const until = answeredAt + 2_000;
    // When Redis stored the pause, as this process heard of it: late on a loaded machine, never
    // early. Stored before it ran out, or the window below proves nothing.
    const [storedAt] = pauses.stored;
    expect(storedAt).toBeGreaterThanOrEqual(answeredAt);
    expect(storedAt).toBeLessThan(until - 500);
    // From then until 50 ms before the pause ends, the other process (one chunk at a time) may
    // finish at most the one request its gate had let go before the pause was stored; every later
    // request of the tenant asks the gate and waits. A process ignoring the pause sends its next
    // chunks' existence checks and bulks in it. Judged by the sandbox's arrival times and Redis'
    // store time, not by a fixed delay after the 429 (a loaded machine stores the pause late).
    const tenantCalls = requests.filter(
      (r) =>
        r.accountId === 1001 &&
        (r.operation === 'createTransactionsBulk' || r.operation === 'checkTransactionsExist'),
    );
    const during = tenantCalls.filter((r) => r.at > (storedAt ?? Number.NaN) && r.at < until - 50);
    expect(during.length, JSON.stringify(during)).toBeLessThanOrEqual(1);
    // And the fleet went on once the pause was over (the retried bulk and the rest of the run).
    expect(tenantCalls.filter((r) => r.at >= until - 50).length).toBeGreaterThan(0);
    // The pause really had another process to hold back: both sent bulks of the run (by their own
    // logs; whether their chunks overlapped in time is up to the machine's load).
    for (const worker of workers)
      expect(
        worker.entries.filter(answered('createTransactionsBulk')).length,
        worker.describe(),
      ).toBeGreaterThan(0);
  });

  it('reimport a finished file through the CLI creating nothing new; runs and report show both runs', async () => {
    const { fleet, env, workers } = await startFleet(world, cli, 2);
    const first = await enqueueExport(fleet, 'mp-reimport', 1_500);
    expect((await finishedExactlyOnce(world, fleet, first, workers)).counts).toMatchObject({
      created: 1_500,
    });
    const before = world.transactions().length;

    const enqueued = await cli.run(['enqueue', first.exp.feedFile, '--reimport'], env);
    expect(enqueued.code, enqueued.describe()).toBe(0);
    const againId = /enqueued \(reimport\) as run (\S+)/.exec(enqueued.stdout)?.[1];
    expect(againId, enqueued.describe()).toBeDefined();
    expect(againId).not.toBe(first.runId);
    const again = { runId: String(againId), exp: first.exp };
    const summary = await finishedExactlyOnce(world, fleet, again, workers);
    expect(summary.counts).toMatchObject({ created: 0, skipped: 1_500, failed: 0, rejected: 0 });
    expect(world.transactions()).toHaveLength(before);

    const workbook = join(mkdtempSync(join(tmpdir(), 'erp-bridge-mp-report-')), 'run.xlsx');
    const [runs, report, problems, skipped, german, excel] = await Promise.all([
      cli.run(['runs', '--feed', 'mp-reimport'], env),
      cli.run(['report', String(againId), '--format', 'csv'], env),
      cli.run(['report', String(againId), '--format', 'ndjson', '--outcome', 'rejected,failed'], env),
      cli.run(['report', String(againId), '--format', 'ndjson', '--outcome', 'skipped'], env),
      cli.run(['report', String(againId), '--format', 'excel-csv'], env),
      cli.run(['report', String(againId), '--format', 'excel', '--output', workbook], env),
    ]);
    expect(runs.code, runs.describe()).toBe(0);
    const listed = runs.stdout.trim().split('\n');
    expect(listed, runs.stdout).toHaveLength(2);
    // Newest first.
    expect(listed[0]).toContain(`${againId}  `);
    expect(listed[0]).toContain('0 created, 0 updated, 1500 skipped, 0 rejected, 0 failed');
    expect(listed[1]).toContain(`${first.runId}  `);
    expect(listed[1]).toContain('1500 created, 0 updated, 0 skipped, 0 rejected, 0 failed');
    // Each run names the service its worker wrote to.
    const target = world.sandbox().url.replace(/\/+$/, '');
    expect(summary.target).toBe(target);
    for (const line of listed) expect(line).toContain(`-> ${target}`);

    expect(report.code, report.describe()).toBe(0);
    const csv = report.stdout.trimEnd().split(/\r?\n/);
    expect(csv[0]).toBe('file,line,externalId,outcome,serviceId,code,message,amount,runId,key');
    // The run id, then the key column (empty: a file's rows have no key).
    expect(csv.slice(1).every((line) => line.endsWith(`,${againId},`))).toBe(true);
    expect(csv).toHaveLength(1 + 1_500);
    // In line order, as `sync` writes outcomes.csv (chunks finish in any order).
    const lineColumn = OUTCOME_COLUMNS.indexOf('line');
    const reportedLines = csv.slice(1).map((line) => Number(line.split(',')[lineColumn]));
    expect(reportedLines).toEqual([...reportedLines].sort((a, b) => a - b));
    const outcomeColumn = OUTCOME_COLUMNS.indexOf('outcome');
    expect(new Set(csv.slice(1).map((line) => line.split(',')[outcomeColumn]))).toEqual(new Set(['skipped']));
    // --outcome keeps only the records asked for: none was rejected or failed, all were skipped.
    expect(problems.code, problems.describe()).toBe(0);
    expect(problems.stdout).toBe('');
    expect(skipped.code, skipped.describe()).toBe(0);
    const lines = skipped.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1_500);
    expect(lines.every((line) => (JSON.parse(line) as { outcome: string }).outcome === 'skipped')).toBe(true);

    // The same lines for German Excel (';', BOM, CRLF) and as a workbook, in the same order.
    expect(german.code, german.describe()).toBe(0);
    const germanLines = german.stdout.split('\r\n').filter(Boolean);
    expect(germanLines[0]).toBe('\uFEFFfile;line;externalId;outcome;serviceId;code;message;amount;runId;key');
    expect(germanLines.slice(1).map((line) => Number(line.split(';')[lineColumn]))).toEqual(reportedLines);
    expect(excel.code, excel.describe()).toBe(0);
    const source = Source.parse({ format: 'xlsx', path: 'x.xlsx' });
    const reading = readSourceBytes('xlsx', source, workbook, openBytes(workbook).input);
    const rowLines: number[] = [];
    for await (const batch of reading.batches)
      for (const item of batch) if (item.kind === 'row') rowLines.push(Number(item.row.cell('line')));
    expect(rowLines).toEqual(reportedLines);
  });
});

/**
 * When Redis stores a rate-limit pause of the fleet under `prefix`, noted in this process from a
 * keyspace notification (turned on for string commands, beside whatever the server notes already).
 */
async function pausesStored(url: string, prefix: string) {
  const admin = new Redis(url);
  const [, flags = ''] = (await admin.config('GET', 'notify-keyspace-events')) as string[];
  const wanted = [...new Set(`${flags}K$`)].join('');
  await admin.config('SET', 'notify-keyspace-events', wanted);
  await admin.quit();
  const listener = new Redis(url);
  const stored: number[] = [];
  listener.on('pmessage', (_pattern: string, _channel: string, event: string) => {
    if (event === 'set') stored.push(Date.now());
  });
  await listener.psubscribe(`__keyspace@*__:*${prefix}*:pause:*`);
  return { stored, close: async () => void (await listener.quit()) };
}
