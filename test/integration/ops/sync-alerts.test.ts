import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedAlerts } from '../../../src/ops/alerts/feed-alerts.js';
import { FileFeedHealthStore } from '../../../src/ops/alerts/file-health-store.js';
import type { AlertNotice } from '../../../src/ops/alerts/notice.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { TestServer } from '../../support/http-server.js';
import { type CapturedLogs, captureLogs } from '../../support/log-capture.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

let h: SyncHarness | undefined;
let receiver: TestServer | undefined;
afterEach(async () => {
  await h?.close();
  await receiver?.close();
  h = undefined;
  receiver = undefined;
});

const clean = { invalidRows: [], excludedRows: [] };

/**
 * `erp-bridge sync` as consecutive processes see it: each run gets alerts of its own over the
 * state file in the report folder, and closes them (flushing the webhook) as the command does.
 */
function syncs(harness: SyncHarness, logs: CapturedLogs, webhookUrl?: string) {
  const stateFile = join(harness.reportDir, '.feed-health.json');
  return async (feedFile: string, dryRun = false) => {
    const alerts = new FeedAlerts({
      config: {
        rejectedShare: 0.1,
        dropShare: 0.5,
        ...(webhookUrl ? { webhook: { url: webhookUrl, timeoutMs: 10_000 } } : {}),
      },
      store: new FileFeedHealthStore(stateFile, logs.logger),
      logger: logs.logger,
    });
    const run = await harness.run(feedFile, dryRun, alerts);
    await alerts.close();
    return run;
  };
}

const notices = (logs: CapturedLogs) =>
  logs
    .entries()
    .filter((e) => e.alert === true && e.event !== undefined)
    .map((e) => [e.level, e.event, e.runId, e.kinds]);

describe('sync alerts, across consecutive runs', () => {
  it('healthy -> stopped (alert with the operator hint) -> stopped (nothing) -> healthy (resolved), to the log and the webhook', async () => {
    h = await syncHarness();
    receiver = await TestServer.start();
    receiver.always('POST', '/hook', { status: 200 });
    const logs = captureLogs();
    const sync = syncs(h, logs, `${receiver.url}/hook`);
    const fixed = transactionsExport({ name: 'health-sync', rows: 1_500, ...clean });
    const online = transactionsExport({ name: 'health-sync', rows: 1_500, bankAccount: 'online', ...clean });

    const first = await sync(fixed.feedFile);
    expect(first.summary.state).toBe('completed');
    const stopped = await sync(online.feedFile);
    expect(stopped.summary.stopReason?.code).toBe('BANK_ACCOUNT_NOT_MODIFIABLE');
    const dry = await sync(fixed.feedFile, true);
    expect(dry.summary.dryRun).toBe(true);
    const again = await sync(online.feedFile);
    expect(again.summary.state).toBe('stopped');
    const healthy = await sync(fixed.feedFile);
    expect(healthy.summary.state).toBe('completed');

    expect(notices(logs)).toEqual([
      ['error', 'alert', stopped.summary.runId, ['run-stopped']],
      ['info', 'resolved', healthy.summary.runId, ['run-stopped']],
    ]);
    const alert = logs.entries().find((e) => e.event === 'alert');
    expect(alert?.msg).toMatch(
      /^feed health-sync \(account 1001\) is failing: the run stopped with BANK_ACCOUNT_NOT_MODIFIABLE: /,
    );
    expect(alert?.msg).toContain("point the feed's bankAccount.externalId at a PARTNER account");
    const bodies = receiver.requestsTo('POST', '/hook').map((r) => JSON.parse(r.body) as AlertNotice);
    expect(bodies.map((b) => [b.event, b.runId, b.kinds])).toEqual([
      ['alert', stopped.summary.runId, ['run-stopped']],
      ['resolved', healthy.summary.runId, ['run-stopped']],
    ]);
    expect(existsSync(join(h.reportDir, '.feed-health.json'))).toBe(true);
  });

  it('warns once when a run reads far fewer records than the feed’s recent runs, and notes the recovery', async () => {
    h = await syncHarness();
    const logs = captureLogs();
    const sync = syncs(h, logs);
    const full = transactionsExport({ name: 'drop-sync', rows: 400, ...clean });
    const cut = transactionsExport({ name: 'drop-sync', rows: 100, ...clean });
    for (let i = 0; i < 3; i++) await sync(full.feedFile);
    expect(notices(logs)).toEqual([]);
    const short = await sync(cut.feedFile);
    const shortAgain = await sync(cut.feedFile);
    const back = await sync(full.feedFile);
    expect(shortAgain.summary.state).toBe('completed');
    expect(notices(logs)).toEqual([
      ['warn', 'warning', short.summary.runId, ['record-count-drop']],
      ['info', 'resolved', back.summary.runId, ['record-count-drop']],
    ]);
    expect(logs.entries().find((e) => e.event === 'warning')?.msg).toBe(
      "feed drop-sync (account 1001): the run read 100 records, less than 50 % of the median of the feed's last 3 runs (400): check that the ERP export is complete before its records are missed",
    );
  });
});

describe('sync log lines', () => {
  it('carry the run, tenant and chunk, also on the shared client’s lines', async () => {
    const logs = captureLogs();
    h = await syncHarness(
      { script: [{ op: 'checkTransactionsExist', fault: '500', times: 4 }] },
      { logger: logs.logger },
    );
    const run = await h.run(transactionsExport({ name: 'logs-sync', rows: 1_500, ...clean }).feedFile);
    expect(run.summary.counts.failed).toBe(1_000);
    const entries = logs.entries();
    const chunkLines = entries.filter((e) => e.chunk !== undefined);
    expect(new Set(chunkLines.map((e) => e.chunk))).toEqual(new Set([1, 2]));
    for (const line of chunkLines)
      expect(line).toMatchObject({ runId: run.summary.runId, feed: 'logs-sync', tenant: 1001 });
    const retries = entries.filter((e) => e.msg === 'retrying after a server error');
    expect(retries).toHaveLength(3);
    for (const line of retries) expect(line).toMatchObject({ chunk: 1, runId: run.summary.runId });
    expect(logs.lines.filter((l) => l.includes('sandbox-secret'))).toEqual([]);
  });
});
