import { afterEach, describe, expect, it } from 'vitest';
import type { AlertNotice } from '../../../src/ops/alerts/notice.js';
import { WEBHOOK_QUEUE_CAPACITY, WebhookSink } from '../../../src/ops/alerts/webhook-sink.js';
import { HANG_GUARD_MS } from '../../support/hang-guard.js';
import { TestServer } from '../../support/http-server.js';
import { captureLogs } from '../../support/log-capture.js';

const SECRET_PATH = '/hooks/T0/B0/s3cr3t-path-token';
const AUTHORIZATION = 'Bearer webhook-auth-s3cr3t';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function notice(runId: string): AlertNotice {
  return {
    event: 'alert',
    feed: 'acme',
    tenant: 1001,
    runId,
    kinds: ['chunk-failed'],
    message: 'feed acme (account 1001) is failing: 3 records failed after every retry',
    counts: { created: 7, updated: 0, skipped: 0, rejected: 0, failed: 3 },
    at: '2026-03-01T02:00:00.000Z',
  };
}

async function receiver() {
  server = await TestServer.start();
  return server;
}

const secretsIn = (lines: readonly string[]) =>
  lines.filter((l) => l.includes('s3cr3t') || l.includes(SECRET_PATH));

describe('the alert webhook', () => {
  it('POSTs the notice as JSON and, after a 500, delivers it once on the retry 1 s later', async () => {
    const rx = await receiver();
    rx.script('POST', SECRET_PATH, { status: 500, text: 'oops' }, { status: 200, text: 'ok' });
    const logs = captureLogs();
    const sink = new WebhookSink(
      { url: `${rx.url}${SECRET_PATH}`, timeoutMs: 10_000, authorization: AUTHORIZATION },
      logs.logger,
    );
    sink.send(notice('r1'));
    await sink.close(); // waits for the queue (at most the timeout)

    const requests = rx.requestsTo('POST', SECRET_PATH);
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(JSON.parse(request.body)).toEqual(notice('r1'));
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers.authorization).toBe(AUTHORIZATION);
    }
    const entries = logs.entries();
    expect(entries.map((e) => e.msg)).toEqual(['alert webhook retrying', 'alert webhook delivered']);
    expect(entries[0]).toMatchObject({ level: 'warn', failure: 'HTTP 500', delayMs: 1000, webhook: rx.url });
    expect(entries[1]).toMatchObject({ level: 'info', attempts: 2, runId: 'r1', webhook: rx.url });
    expect(secretsIn(logs.lines)).toEqual([]);
  });

  it('retries a 429 and gives up at once on a 4xx, in the order the notices came', async () => {
    const rx = await receiver();
    rx.script('POST', '/hook', { status: 429 }, { status: 204 }, { status: 400, text: 'bad' });
    const logs = captureLogs();
    const sink = new WebhookSink({ url: `${rx.url}/hook`, timeoutMs: 10_000 }, logs.logger);
    sink.send(notice('r1'));
    sink.send(notice('r2'));
    await sink.close();
    expect(rx.requestsTo('POST', '/hook').map((r) => (JSON.parse(r.body) as AlertNotice).runId)).toEqual([
      'r1',
      'r1',
      'r2',
    ]);
    expect(logs.entries().map((e) => [e.msg, e.runId, e.failure])).toEqual([
      ['alert webhook retrying', 'r1', 'HTTP 429'],
      ['alert webhook delivered', 'r1', undefined],
      ['alert webhook delivery failed; the notice is in the log only', 'r2', 'HTTP 400'],
    ]);
  });

  it('retries network errors three times, then logs the failure', async () => {
    const rx = await receiver();
    const url = `${rx.url}${SECRET_PATH}`;
    await rx.close(); // nobody listens on the port any more
    server = undefined;
    const logs = captureLogs();
    const sink = new WebhookSink({ url, timeoutMs: 5_000 }, logs.logger, [10, 20, 40]);
    sink.send(notice('r1'));
    await sink.close();
    const entries = logs.entries();
    expect(entries.map((e) => e.msg)).toEqual([
      'alert webhook retrying',
      'alert webhook retrying',
      'alert webhook retrying',
      'alert webhook delivery failed; the notice is in the log only',
    ]);
    expect(entries[3]).toMatchObject({ level: 'error', attempts: 4, failure: 'ECONNREFUSED' });
    expect(secretsIn(logs.lines)).toEqual([]);
  });

  it('never makes the sender wait: a receiver that never answers is abandoned at shutdown, and a full queue drops', async () => {
    const rx = await receiver();
    rx.always('POST', '/hook', { hang: true });
    const logs = captureLogs();
    const sink = new WebhookSink({ url: `${rx.url}/hook`, timeoutMs: 60_000 }, logs.logger);
    for (let i = 0; i <= WEBHOOK_QUEUE_CAPACITY + 1; i++) sink.send(notice(`r${i}`));
    // One notice is in flight, the queue holds its capacity, the last one was dropped.
    const dropped = logs.entries().filter((e) => e.msg === 'alert webhook queue full: notice dropped');
    expect(dropped).toEqual([
      expect.objectContaining({ level: 'warn', runId: `r${WEBHOOK_QUEUE_CAPACITY + 1}` }),
    ]);
    const deadline = Date.now() + HANG_GUARD_MS;
    while (rx.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(rx.requests).toHaveLength(1);

    await sink.close(100);
    expect(logs.entries().at(-1)).toMatchObject({
      level: 'warn',
      msg: 'shutting down: alert notices not delivered in time were abandoned',
      abandoned: WEBHOOK_QUEUE_CAPACITY + 1,
    });
    sink.send(notice('late'));
    expect(logs.entries().at(-1)).toMatchObject({
      msg: 'alert webhook closed: notice not sent',
      runId: 'late',
    });
    expect(rx.requests).toHaveLength(1);
  });
});
