import { afterEach, describe, expect, it } from 'vitest';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { connectRedis } from '../../../src/fleet/redis.js';
import type { AlertConfig } from '../../../src/ops/alerts/alert-config.js';
import { FeedAlerts } from '../../../src/ops/alerts/feed-alerts.js';
import type { AlertNotice } from '../../../src/ops/alerts/notice.js';
import { RedisFeedHealthStore } from '../../../src/ops/alerts/redis-health-store.js';
import { createMetrics, type Metrics } from '../../../src/ops/metrics.js';
import type { FaultConfigInput } from '../../../src/sandbox/faults-config.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { TestServer } from '../../support/http-server.js';
import { captureLogs } from '../../support/log-capture.js';
import { summaryOf } from '../../support/run-summaries.js';

const world = fleetTestWorld();
const SECRET_PATH = '/hooks/T0/B0/fleet-s3cr3t-token';
const AUTHORIZATION = 'Bearer fleet-webhook-s3cr3t';
/** The first chunk's existence check fails four times: the client gives up after three retries. */
const FIRST_CHUNK_FAILS: FaultConfigInput = {
  script: [{ op: 'checkTransactionsExist', fault: '500', times: 4 }],
};

let receiver: TestServer | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const config = (url: string, timeoutMs = 10_000): AlertConfig => ({
  rejectedShare: 0.1,
  dropShare: 0.5,
  webhook: { url, timeoutMs, authorization: AUTHORIZATION },
});

type Fleet = ReturnType<typeof world.start>;
const notices = (entries: Record<string, unknown>[]) =>
  entries.filter((e) => e.alert === true && e.event !== undefined).map((e) => [e.event, e.runId, e.kinds]);

/** One worker (retry waits pass at once) whose finished runs are judged by alerts with a webhook. */
function alertingWorker(
  fleet: Fleet,
  webhookUrl: string,
  options: { timeoutMs?: number; metrics?: Metrics } = {},
) {
  const logs = captureLogs();
  const alerts = new FeedAlerts({
    config: config(webhookUrl, options.timeoutMs),
    store: new RedisFeedHealthStore(fleet.connection, fleetKeys(fleet.config.prefix)),
    logger: logs.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  fleet.worker(1, { instantRetries: true, logger: logs.logger, alerts });
  return { logs, alerts };
}

const cleanExport = (name: string, rows: number) =>
  transactionsExport({ rows, name, invalidRows: [], excludedRows: [] });

/**
 * The run's summary once the feed alerts have judged it too: the fleet stores the summary first
 * and judges after it (issue 27's one order), so on a loaded machine a test reading the logs as
 * soon as the summary is there would find the run's notice not yet logged.
 */
async function runOf(fleet: Fleet, enqueued: Promise<{ runId: string; enqueued: string | false }[]>) {
  const [run] = await enqueued;
  if (!run) throw new Error('nothing enqueued');
  const summary = await fleet.finished(run.runId);
  const key = fleetKeys(fleet.config.prefix).run(run.runId);
  const deadline = Date.now() + HANG_GUARD_MS;
  while ((await fleet.connection.hexists(key, 'judged')) === 0) {
    if (Date.now() > deadline) throw new Error(`run ${run.runId}: never judged by the feed alerts`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { ...run, summary };
}

describe('fleet alerts on a change of a feed’s health', () => {
  it('healthy -> failing (alert, webhook retried after a 500) -> failing (nothing) -> healthy after the retry run (resolved)', async () => {
    const fleet = world.start();
    receiver = await TestServer.start();
    receiver.script('POST', SECRET_PATH, { status: 500 }).always('POST', SECRET_PATH, { status: 200 });
    const metrics = createMetrics({ processMetrics: false });
    const { logs, alerts } = alertingWorker(fleet, `${receiver.url}${SECRET_PATH}`, { metrics });
    const exp = cleanExport('health-fleet', 2_500);

    const healthy = await runOf(fleet, fleet.enqueue(exp.feedFile));
    expect(healthy.summary.counts.created).toBe(2_500);
    world.faults(FIRST_CHUNK_FAILS);
    const failing = await runOf(fleet, fleet.enqueue(exp.feedFile, { reimport: true }));
    expect(failing.summary.counts.failed).toBe(1_000);
    world.faults(FIRST_CHUNK_FAILS);
    const again = await runOf(fleet, fleet.enqueue(exp.feedFile, { reimport: true }));
    expect(again.summary.counts.failed).toBe(1_000);
    world.faults({});
    // The next pass retries only the 1000 failed lines: healthy, and no record-count drop
    // (1000 is under half of 2500, but a retry run is no measure of the export's size).
    const retry = await runOf(fleet, fleet.enqueue(exp.feedFile));
    expect(retry.enqueued).toBe('retry');
    expect(retry.summary.counts).toMatchObject({ skipped: 1_000, failed: 0 });

    expect(notices(logs.entries())).toEqual([
      ['alert', failing.runId, ['chunk-failed']],
      ['resolved', retry.runId, ['chunk-failed']],
    ]);
    const repeat = logs.entries().find((e) => e.msg === 'feed still failing the same way (alerted before)');
    expect(repeat).toMatchObject({ level: 'info', runId: again.runId });
    expect(repeat).not.toHaveProperty('alert');

    await alerts.close(); // flushes the webhook
    const bodies = receiver.requestsTo('POST', SECRET_PATH).map((r) => JSON.parse(r.body) as AlertNotice);
    expect(bodies.map((b) => [b.event, b.runId])).toEqual([
      ['alert', failing.runId], // answered 500
      ['alert', failing.runId], // retried 1 s later: delivered
      ['resolved', retry.runId],
    ]);
    expect(bodies[0]).toMatchObject({
      feed: 'health-fleet',
      tenant: 1001,
      kinds: ['chunk-failed'],
      counts: { created: 0, skipped: 1_500, failed: 1_000 },
      message: expect.stringMatching(/^feed health-fleet \(account 1001\) is failing: 1000 records failed/),
    });
    expect(
      logs
        .entries()
        .filter((e) => e.msg === 'alert webhook delivered')
        .map((e) => e.attempts),
    ).toEqual([2, 1]);

    const counted = (await metrics.alerts.get()).values.map((v) => [v.labels.kind, v.value]);
    expect(counted.sort()).toEqual([
      ['chunk-failed', 1],
      ['resolved', 1],
    ]);
    expect((await metrics.feedFailing.get()).values).toEqual([
      expect.objectContaining({ labels: { feed: 'health-fleet' }, value: 0 }),
    ]);
  });

  it('never makes the worker wait for the webhook: runs finish while it hangs', async () => {
    const fleet = world.start();
    receiver = await TestServer.start();
    receiver.always('POST', '/hook', { hang: true });
    const { logs, alerts } = alertingWorker(fleet, `${receiver.url}/hook`, { timeoutMs: 120_000 });
    const exp = cleanExport('hang-fleet', 1_500);
    world.faults(FIRST_CHUNK_FAILS);
    const failing = await runOf(fleet, fleet.enqueue(exp.feedFile));
    expect(failing.summary.counts.failed).toBe(1_000);
    const deadline = Date.now() + HANG_GUARD_MS;
    while (receiver.requests.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(receiver.requests).toHaveLength(1);

    // The webhook still holds the first notice; the worker goes on with the next run.
    world.faults({});
    const healthy = await runOf(fleet, fleet.enqueue(exp.feedFile, { reimport: true }));
    expect(healthy.summary.counts.failed).toBe(0);
    expect(notices(logs.entries()).map(([event]) => event)).toEqual(['alert', 'resolved']);
    expect(receiver.requests).toHaveLength(1);
    expect(logs.entries().filter((e) => String(e.msg).startsWith('alert webhook de'))).toEqual([]);

    // Shutdown waits one timeout at most (120 s here); a shorter wait keeps the test quick.
    await alerts.close(100);
    expect(logs.entries().at(-1)).toMatchObject({
      msg: 'shutting down: alert notices not delivered in time were abandoned',
      abandoned: 2,
    });
  });

  it('raises one alert when two workers finish failing runs of a feed at the same moment', async () => {
    const fleet = world.start();
    const keys = fleetKeys(fleet.config.prefix);
    const connections = [
      connectRedis(fleet.config.redisUrl, 'alerts-a'),
      connectRedis(fleet.config.redisUrl, 'alerts-b'),
    ];
    const logs = [captureLogs(), captureLogs()];
    const workers = connections.map(
      (redis, i) =>
        new FeedAlerts({
          config: { rejectedShare: 0.1, dropShare: 0.5 },
          store: new RedisFeedHealthStore(redis, keys),
          logger: (logs[i] ?? captureLogs()).logger,
        }),
    );
    const feeds = Array.from({ length: 25 }, (_, i) => `race-${i}`);
    const all = () => logs.flatMap((l) => notices(l.entries()));
    try {
      const finishAll = (options: { failed?: number; created?: number }) =>
        Promise.all(
          feeds.flatMap((feed) =>
            workers.map((alerts, i) =>
              alerts.runFinished(summaryOf({ feed, runId: `${feed}-${i}`, ...options })),
            ),
          ),
        );
      await finishAll({ failed: 5 });
      const raised = all().filter(([event]) => event === 'alert');
      expect(raised).toHaveLength(feeds.length);
      expect(new Set(raised.map(([, runId]) => String(runId).replace(/-\d$/, ''))).size).toBe(feeds.length);
      await finishAll({ created: 5 });
      expect(all().filter(([event]) => event === 'resolved')).toHaveLength(feeds.length);
    } finally {
      await Promise.all(connections.map((c) => c.quit()));
    }
  });
});

describe('fleet log lines', () => {
  it('carry tenant, job, run and chunk on every chunk line, the shared client’s included, and never a secret', async () => {
    const fleet = world.start();
    const issued: string[] = [];
    const tokens = world.sandbox().runtime.tokens;
    const issue = tokens.issue.bind(tokens);
    tokens.issue = (client, now) => {
      const token = issue(client, now);
      issued.push(token.access_token);
      return token;
    };
    receiver = await TestServer.start();
    receiver.script('POST', SECRET_PATH, { status: 503 }).always('POST', SECRET_PATH, { status: 200 });
    const { logs, alerts } = alertingWorker(fleet, `${receiver.url}${SECRET_PATH}`);
    const exp = cleanExport('logs-fleet', 1_500);
    world.faults(FIRST_CHUNK_FAILS);
    const run = await runOf(fleet, fleet.enqueue(exp.feedFile));
    expect(run.summary.counts.failed).toBe(1_000);
    await alerts.close();
    expect(receiver.requests).toHaveLength(2);

    const entries = logs.entries();
    const chunkLines = entries.filter((e) => e.chunk !== undefined);
    expect(new Set(chunkLines.map((e) => e.chunk))).toEqual(new Set([1, 2]));
    for (const line of chunkLines)
      expect(line).toMatchObject({
        runId: run.runId,
        feed: 'logs-fleet',
        tenant: 1001,
        job: `${run.runId}-${line.chunk}`,
      });
    // The client is shared by every job of the worker; its lines name the chunk all the same.
    const retries = entries.filter((e) => e.msg === 'retrying after a server error');
    expect(retries).toHaveLength(3);
    for (const line of retries) expect(line).toMatchObject({ chunk: 1, job: `${run.runId}-1`, tenant: 1001 });
    // Exactly one alert line per call that exhausted its retries: the gate's hooks add none.
    const exhausted = entries.filter((e) => e.alert === true && e.operation === 'checkTransactionsExist');
    expect(exhausted).toEqual([
      expect.objectContaining({
        msg: 'partner api call failed after every retry',
        chunk: 1,
        runId: run.runId,
      }),
    ]);
    expect(entries.find((e) => e.msg === 'run finished')).toMatchObject({
      runId: run.runId,
      tenant: 1001,
      job: run.runId,
    });

    expect(issued.length).toBeGreaterThan(0);
    const secrets = ['sandbox-secret', ...issued, 's3cr3t', AUTHORIZATION];
    for (const secret of secrets) expect(logs.lines.filter((l) => l.includes(secret))).toEqual([]);
  });
});
