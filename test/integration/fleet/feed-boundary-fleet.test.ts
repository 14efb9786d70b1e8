import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { type GeneratedExport, invoicesExport, transactionsExport } from '../../support/generated-exports.js';

/**
 * Issue 27 point 2 on the fleet: a feed is a fault boundary on a worker too. One worker runs the
 * imports and chunks of several feeds at once; feed A's fault (its import job refused, its
 * location, its reader, its chunks failing unexpectedly) ends A's run alone, and B (A's tenant)
 * and C (another tenant) sync every record on the same worker with their own summaries.
 */
const world = fleetTestWorld({ latency: { ms: 2, jitterMs: 0 } });

/** B on tenant 1001 and C on tenant 1002, several chunks each, so they run beside A's fault. */
function healthyPair(tag: string) {
  const rows = { rows: 2_200, invalidRows: [], excludedRows: [] };
  return {
    b: transactionsExport({ ...rows, name: `${tag}-b`, accountId: 1001, bankAccount: 'fb', concurrency: 2 }),
    c: transactionsExport({ ...rows, name: `${tag}-c`, accountId: 1002, bankAccount: 'fb', concurrency: 2 }),
  };
}

function expectSynced(summary: RunSummary, exp: GeneratedExport, accountId: number): void {
  expect(summary.state, summary.feed).toBe('completed');
  expect(summary.stopReason, summary.feed).toBeUndefined();
  expect(summary.counts, summary.feed).toMatchObject({
    created: exp.sentLines.length,
    failed: 0,
    rejected: 0,
  });
  const prefix = `${summary.feed}-`;
  expect(world.transactions(accountId).filter((t) => t.externalId?.startsWith(prefix))).toHaveLength(
    exp.sentLines.length,
  );
}

describe('issue 27.2: a feed is a fault boundary on a worker', () => {
  it("A's import refused (its feed file turned invalid), its export gone, its file unreadable: A ends alone; B and C on the same worker sync every record", async () => {
    const fleet = world.start();
    const { b, c } = healthyPair('fbw');
    const badRef = transactionsExport({ rows: 40, name: 'fbw-badref', invalidRows: [], excludedRows: [] });
    const gone = transactionsExport({ rows: 40, name: 'fbw-gone', invalidRows: [], excludedRows: [] });
    const encoding = transactionsExport({ rows: 40, name: 'fbw-enc', invalidRows: [], excludedRows: [] });
    const enqueued = async (exp: GeneratedExport) => String((await fleet.enqueue(exp.feedFile))[0]?.runId);
    const runs = {
      badRef: await enqueued(badRef),
      b: await enqueued(b),
      gone: await enqueued(gone),
      c: await enqueued(c),
      encoding: await enqueued(encoding),
    };
    // Broken between enqueue and the worker: a feed file that no longer loads, an export removed,
    // a Windows-1252 file its feed now says is UTF-8.
    writeFileSync(badRef.feedFile, 'name: [unclosed\n');
    rmSync(join(gone.dir, 'umsaetze.csv'));
    const yaml = readFileSync(encoding.feedFile, 'utf8');
    writeFileSync(encoding.feedFile, yaml.replace('encoding: windows-1252', 'encoding: utf-8'));
    fleet.worker(4);

    expectSynced(await fleet.finished(runs.b), b, 1001);
    expectSynced(await fleet.finished(runs.c), c, 1002);
    const goneSummary = await fleet.finished(runs.gone);
    expect(goneSummary.state).toBe('stopped');
    expect(goneSummary.stopReason).toMatchObject({ code: 'NO_SUCH_FILE', exitCode: 1 });
    const encodingSummary = await fleet.finished(runs.encoding);
    expect(encodingSummary.state).toBe('stopped');
    expect(encodingSummary.stopReason).toMatchObject({ code: 'ENCODING_INVALID', exitCode: 2 });
    // A job that can never succeed fails for good at once, naming its feed file; its run ends
    // stopped with its code and summary (not "running" forever in `runs`), nothing of it sent.
    // Refused at once, long before B and C finished: a bounded wait, so a missing summary says so.
    const refusedRun = await fleet.finished(runs.badRef, 30_000);
    expect(refusedRun).toMatchObject({ feed: 'fbw-badref', state: 'stopped', counts: { created: 0 } });
    expect(refusedRun.stopReason).toMatchObject({ code: 'JOB_REFUSED', exitCode: 2 });
    expect(refusedRun.stopReason?.message).toContain(relative(tmpdir(), badRef.feedFile));
    expect(refusedRun.stopReason?.message).toContain('not valid YAML');
    const refused = await fleet.queues.imports.getJob(runs.badRef);
    expect(await refused?.getState()).toBe('failed');
    expect(refused?.attemptsMade).toBe(1);
  });

  it("A's chunks failing unexpectedly (UNEXPECTED_ERROR) fail A's records only; B (A's tenant) and C sync every record", async () => {
    const fleet = world.start();
    const { b, c } = healthyPair('fbc');
    const invoices = invoicesExport({ rows: 1_500, name: 'fbc-a', invalidRows: [] });
    // A bug or lost infrastructure under A's requests only (its kind's operations), on the worker B and C share.
    fleet.worker(4, {
      beforeRequest: async (start) => {
        if (/Invoice/.test(start.operation)) throw new TypeError('boom: a bug under feed A');
      },
    });
    const runs = await Promise.all(
      [invoices, b, c].map(async (exp) => (await fleet.enqueue(exp.feedFile))[0]),
    );
    const [a, bRun, cRun] = await Promise.all(runs.map((run) => fleet.finished(String(run?.runId))));
    expect(a?.counts).toMatchObject({ created: 0, failed: invoices.sentLines.length });
    const codes = new Set((await fleet.outcomes(String(runs[0]?.runId))).map((o) => o.code));
    expect(codes).toEqual(new Set(['UNEXPECTED_ERROR']));
    expectSynced(bRun as RunSummary, b, 1001);
    expectSynced(cRun as RunSummary, c, 1002);
  });

  it("A's 429 pauses the credentials every feed shares (the spec's limit is per credentials): B and C wait, resume and sync; none fails", async () => {
    const fleet = world.start();
    const { b, c } = healthyPair('fbr');
    const invoices = invoicesExport({ rows: 1_500, name: 'fbr-a', invalidRows: [] });
    world.faults({
      latency: { ms: 2, jitterMs: 0 },
      script: [{ op: 'createInvoicesBulk', fault: '429', times: 2, retryAfterSeconds: 1 }],
    });
    fleet.worker(4);
    const runs = await Promise.all(
      [invoices, b, c].map(async (exp) => (await fleet.enqueue(exp.feedFile))[0]),
    );
    const [a, bRun, cRun] = await Promise.all(runs.map((run) => fleet.finished(String(run?.runId))));
    expect(fleet.events.filter((e) => e.kind === '429')).toHaveLength(2);
    expect(a?.counts).toMatchObject({ created: invoices.sentLines.length, failed: 0 });
    expectSynced(bRun as RunSummary, b, 1001);
    expectSynced(cRun as RunSummary, c, 1002);
  });
});
