import { describe, expect, it } from 'vitest';
import type { RunAlerts } from '../../../src/sync/alerts.js';
import type { RunSummary } from '../../../src/sync/report/summary.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';

const world = fleetTestWorld();

/**
 * The fleet stores a run's summary before the feed alerts judge it (sync/run/finish-run.ts, the
 * same order as `sync`). A finishing job that fails between the two (here: the alerts throw once,
 * as a worker dying there would leave it) is retried by BullMQ; its replay finds the summary stored
 * and the run not judged, and judges it then: the alert is not lost, and not raised twice.
 */
describe('a replayed finishing job', () => {
  it('judges the stored run once although the first judgment failed', async () => {
    const fleet = world.start();
    const heard: { summary: RunSummary; stored: boolean }[] = [];
    let failures = 0;
    const alerts: RunAlerts = {
      runFinished: async (summary) => {
        const stored = (await fleet.store.summary(summary.runId)) !== undefined;
        if (failures++ === 0) throw new Error('the worker died here');
        heard.push({ summary, stored });
      },
      close: async () => {},
    };
    fleet.worker(1, { instantRetries: true, alerts });
    const exp = transactionsExport({ rows: 30, name: 'replay', invalidRows: [], excludedRows: [] });
    const [run] = await fleet.enqueue(exp.feedFile);
    if (!run) throw new Error('nothing enqueued');
    const summary = await fleet.finished(run.runId);
    const job = await fleet.queues.imports.getJob(run.runId);
    if (!job) throw new Error('no import job');
    // Waits for the retried attempt (BullMQ's backoff) to end the job.
    for (let state = await job.getState(); state !== 'completed'; state = await job.getState()) {
      if (state === 'failed') throw new Error(`the import job failed: ${job.failedReason}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(failures).toBe(2);
    expect(heard).toEqual([{ summary, stored: true }]);
    expect(await fleet.store.summary(run.runId)).toEqual(summary);
    expect(summary.counts.created).toBe(30);
  });
});
