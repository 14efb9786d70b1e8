import { describe, expect, it } from 'vitest';
import type { AlertConfig } from '../../../src/ops/alerts/alert-config.js';
import { FeedAlerts } from '../../../src/ops/alerts/feed-alerts.js';
import { MemoryFeedHealthStore } from '../../../src/ops/alerts/health-store.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { captureLogs } from '../../support/log-capture.js';
import { type SummaryOptions, summaryOf } from '../../support/run-summaries.js';

const CONFIG: AlertConfig = { rejectedShare: 0.1, dropShare: 0.5 };
const STOP = {
  code: 'BANK_ACCOUNT_NOT_MODIFIABLE',
  message: 'point bankAccount.externalId at a PARTNER account',
};

function world() {
  const logs = captureLogs();
  const metrics = createMetrics({ processMetrics: false });
  const store = new MemoryFeedHealthStore();
  const alerts = new FeedAlerts({ config: CONFIG, store, logger: logs.logger, metrics });
  let seen = 0;
  /** The notices (lines with alert: true) logged since the last call. */
  const notices = () => {
    const entries = logs.entries().filter((e) => e.alert === true);
    const fresh = entries.slice(seen);
    seen = entries.length;
    return fresh.map((e) => ({ event: e.event, level: e.level, kinds: e.kinds }));
  };
  const counter = async () =>
    Object.fromEntries(
      (await metrics.alerts.get()).values.map((v) => [`${v.labels.feed}/${v.labels.kind}`, v.value]),
    );
  const failing = async (feed: string) =>
    (await metrics.feedFailing.get()).values.find((v) => v.labels.feed === feed)?.value;
  return { logs, alerts, store, notices, counter, failing };
}

type Step = [
  string,
  SummaryOptions & { retry?: boolean },
  { event: string; level: string; kinds: string[] }[],
];

describe('FeedAlerts: one notice per change of a feed’s state', () => {
  const steps: Step[] = [
    ['healthy first run: nothing', { created: 100 }, []],
    [
      'records fail: alert',
      { created: 90, failed: 10 },
      [{ event: 'alert', level: 'error', kinds: ['chunk-failed'] }],
    ],
    ['fails the same way again: nothing', { created: 95, failed: 5 }, []],
    ['a retry run still failing: nothing', { failed: 5, retry: true }, []],
    [
      'fails differently: alert again',
      { created: 40, failed: 10, rejected: 50 },
      [{ event: 'alert', level: 'error', kinds: ['chunk-failed', 'rejected-share'] }],
    ],
    [
      'healthy again: resolved, naming what is over',
      { created: 100 },
      [{ event: 'resolved', level: 'info', kinds: ['chunk-failed', 'rejected-share'] }],
    ],
    ['healthy again: nothing', { created: 100 }, []],
    [
      'stopped: alert',
      { failed: 100, stop: STOP },
      [{ event: 'alert', level: 'error', kinds: ['run-stopped'] }],
    ],
    ['a failing dry run changes nothing', { rejected: 100, dryRun: true }, []],
    ['stopped again: nothing', { failed: 100, stop: STOP }, []],
    ['a healthy dry run does not resolve', { created: 100, dryRun: true }, []],
    [
      'a retry run that succeeds resolves',
      { created: 10, retry: true },
      [{ event: 'resolved', level: 'info', kinds: ['run-stopped'] }],
    ],
  ];

  it('walks healthy -> failing -> failing -> failing differently -> healthy, and dry runs change nothing', async () => {
    const w = world();
    for (const [name, { retry, ...run }, expected] of steps) {
      await w.alerts.runFinished(summaryOf({ feed: 'acme', ...run }), { retry: retry === true });
      expect(w.notices(), name).toEqual(expected);
    }
    expect(await w.counter()).toEqual({
      'acme/chunk-failed': 2,
      'acme/rejected-share': 1,
      'acme/run-stopped': 1,
      'acme/resolved': 2,
    });
    expect(await w.failing('acme')).toBe(0);
  });

  it('alerts again when a stopped feed stops for another reason: a refused secret after a dead auth URL', async () => {
    const w = world();
    const deadAuth = { code: 'AUTH_UNREACHABLE', message: 'check PARTNER_AUTH_URL' };
    const badSecret = { code: 'INVALID_CREDENTIALS', message: 'check PARTNER_CLIENT_SECRET' };
    await w.alerts.runFinished(summaryOf({ feed: 'acme', failed: 5, stop: deadAuth }));
    await w.alerts.runFinished(summaryOf({ feed: 'acme', failed: 5, stop: deadAuth }));
    await w.alerts.runFinished(summaryOf({ feed: 'acme', failed: 5, stop: badSecret, runId: 'r3' }));
    const alerts = w.logs.entries().filter((e) => e.alert === true);
    expect(alerts.map((e) => e.kinds)).toEqual([['run-stopped'], ['run-stopped']]);
    expect(alerts[1]).toMatchObject({ runId: 'r3', event: 'alert' });
    expect(alerts[1]?.msg).toMatch(
      /is failing differently \(was run-stopped with AUTH_UNREACHABLE\): the run stopped with INVALID_CREDENTIALS: check PARTNER_CLIENT_SECRET/,
    );
  });

  it('logs a repeat at info without alert: true, and sets the failing gauge on every run', async () => {
    const w = world();
    await w.alerts.runFinished(summaryOf({ feed: 'acme', failed: 1, runId: 'r1' }));
    expect(await w.failing('acme')).toBe(1);
    await w.alerts.runFinished(summaryOf({ feed: 'acme', failed: 1, runId: 'r2' }));
    const repeat = w.logs.entries().find((e) => e.runId === 'r2');
    expect(repeat).toMatchObject({ level: 'info', kinds: ['chunk-failed'] });
    expect(repeat).not.toHaveProperty('alert');
    expect(await w.failing('acme')).toBe(1);
  });

  it('logs each notice with feed, tenant, run, kinds, counts and what to do', async () => {
    const w = world();
    await w.alerts.runFinished(
      summaryOf({ feed: 'acme', accountId: 4711, runId: 'r1', failed: 7, stop: STOP }),
    );
    const [line] = w.logs.entries().filter((e) => e.alert === true);
    expect(line).toMatchObject({
      level: 'error',
      alert: true,
      event: 'alert',
      state: 'failing',
      feed: 'acme',
      tenant: 4711,
      runId: 'r1',
      kinds: ['run-stopped'],
      counts: { created: 0, updated: 0, skipped: 0, rejected: 0, failed: 7 },
    });
    expect(line?.msg).toBe(
      'feed acme (account 4711) is failing: the run stopped with BANK_ACCOUNT_NOT_MODIFIABLE: point bankAccount.externalId at a PARTNER account',
    );
    await w.alerts.runFinished(summaryOf({ feed: 'acme', accountId: 4711, runId: 'r2', created: 7 }));
    const resolved = w.logs.entries().filter((e) => e.alert === true)[1];
    expect(resolved).toMatchObject({ level: 'info', event: 'resolved', state: 'resolved', runId: 'r2' });
    expect(resolved?.msg).toBe(
      'feed acme (account 4711) is healthy again: run r2 ended completed without run-stopped',
    );
  });

  it('keeps feeds apart', async () => {
    const w = world();
    await w.alerts.runFinished(summaryOf({ feed: 'a', failed: 1 }));
    await w.alerts.runFinished(summaryOf({ feed: 'b', failed: 1 }));
    await w.alerts.runFinished(summaryOf({ feed: 'a', created: 1 }));
    expect(w.notices().map((n) => n.event)).toEqual(['alert', 'alert', 'resolved']);
    expect(await w.failing('a')).toBe(0);
    expect(await w.failing('b')).toBe(1);
  });
});

describe('FeedAlerts: record-count drop', () => {
  it('warns once when a run reads far fewer records than the recent ones, and notes the recovery', async () => {
    const w = world();
    const steps: Step[] = [
      ['first run', { created: 1000 }, []],
      ['second run', { created: 1100 }, []],
      ['only two runs to compare with: no judgement', { created: 10 }, []],
      ['third normal run', { created: 900 }, []],
      // Recent: 900, 10, 1100, 1000 -> median 950.
      [
        'far below: warning',
        { created: 100 },
        [{ event: 'warning', level: 'warn', kinds: ['record-count-drop'] }],
      ],
      ['still low: nothing', { created: 100 }, []],
      ['a retry run is not judged (and is no recent run)', { created: 1, retry: true }, []],
      [
        'back to normal: resolved',
        { created: 1000 },
        [{ event: 'resolved', level: 'info', kinds: ['record-count-drop'] }],
      ],
    ];
    for (const [name, { retry, ...run }, expected] of steps) {
      await w.alerts.runFinished(summaryOf({ feed: 'drop', ...run }), { retry: retry === true });
      expect(w.notices(), name).toEqual(expected);
    }
    expect(await w.store.recentRecords('drop')).toEqual([1000, 100, 100, 900, 10]);
    expect(await w.counter()).toEqual({ 'drop/record-count-drop': 1, 'drop/resolved': 1 });
    // A warning is not a failure.
    expect(await w.failing('drop')).toBe(0);
  });

  it('judges drops and failures independently', async () => {
    const w = world();
    for (const created of [1000, 1000, 1000]) await w.alerts.runFinished(summaryOf({ feed: 'f', created }));
    await w.alerts.runFinished(summaryOf({ feed: 'f', created: 10, failed: 10 }));
    expect(w.notices()).toEqual([
      { event: 'alert', level: 'error', kinds: ['chunk-failed'] },
      { event: 'warning', level: 'warn', kinds: ['record-count-drop'] },
    ]);
    await w.alerts.runFinished(summaryOf({ feed: 'f', created: 10 }));
    expect(w.notices()).toEqual([{ event: 'resolved', level: 'info', kinds: ['chunk-failed'] }]);
  });

  it('adds a run seen twice (a replayed job) to the recent counts once', async () => {
    const w = world();
    const run = summaryOf({ feed: 'f', created: 10, runId: 'same' });
    await w.alerts.runFinished(run);
    await w.alerts.runFinished(run);
    expect(await w.store.recentRecords('f')).toEqual([10]);
  });
});
