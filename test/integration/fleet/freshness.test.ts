import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFeedFile } from '../../../src/config/load-feed.js';
import { checkFreshness } from '../../../src/fleet/freshness.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { loadAlertConfig } from '../../../src/ops/alerts/alert-config.js';
import { FeedAlerts } from '../../../src/ops/alerts/feed-alerts.js';
import { RedisFeedHealthStore } from '../../../src/ops/alerts/redis-health-store.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { transactionsExport } from '../../support/generated-exports.js';
import { captureLogs } from '../../support/log-capture.js';
import { cliProcesses, fleetProcessEnv, SLOW_MACHINE_TIMEOUT_MS } from '../../support/worker-process.js';

/**
 * Issue 26.2, freshness: a feed whose location shows no new export for longer than its
 * `source.expectEvery` raises an alert through the feed alerts (log with alert: true, webhook), and
 * `runs` shows it, as dbt's source freshness does. Times are passed in: no waiting.
 */
const world = fleetTestWorld();
const cli = cliProcesses();
const HOUR = 3_600_000;

function expectingFeed(name: string, withFile: boolean) {
  const exp = transactionsExport({ rows: 3, name, invalidRows: [], excludedRows: [] });
  if (!withFile) rmSync(join(exp.dir, 'umsaetze.csv'));
  writeFileSync(
    exp.feedFile,
    readFileSync(exp.feedFile, 'utf8').replace(
      '  path: umsaetze.csv',
      '  path: umsaetze.csv\n  expectEvery: 26h\n  allowNoFiles: true',
    ),
  );
  return exp;
}

describe('issue 26.2: freshness of feeds with source.expectEvery', {
  timeout: SLOW_MACHINE_TIMEOUT_MS,
}, () => {
  it('alerts once when a feed shows no new export for longer than expectEvery, and resolves when one comes', async () => {
    const fleet = world.start();
    const logs = captureLogs();
    const alerts = new FeedAlerts({
      config: loadAlertConfig({}),
      store: new RedisFeedHealthStore(fleet.connection, fleetKeys(fleet.config.prefix)),
      logger: logs.logger,
    });
    const delivered = expectingFeed('fresh-a', true);
    const [run] = await fleet.enqueue(delivered.feedFile);
    expect(run?.enqueued).toBe('new');
    const [entry] = await fleet.registry.freshness();
    expect(entry).toMatchObject({ feed: 'fresh-a', expectEveryMs: 26 * HOUR });
    const seenAt = entry?.lastNewAt as number;
    const feeds = [await loadFeedFile(delivered.feedFile)];
    const stale = () => logs.entries().filter((e) => e.alert === true);

    expect(await checkFreshness(feeds, fleet.registry, alerts, seenAt + 25 * HOUR)).toMatchObject([
      { feed: 'fresh-a', stale: false },
    ]);
    expect(stale()).toEqual([]);
    await checkFreshness(feeds, fleet.registry, alerts, seenAt + 27 * HOUR);
    await checkFreshness(feeds, fleet.registry, alerts, seenAt + 28 * HOUR);
    // One alert for the change, not one per pass.
    expect(stale()).toEqual([
      expect.objectContaining({
        level: 'error',
        state: 'failing',
        feed: 'fresh-a',
        kinds: ['stale'],
        msg: expect.stringMatching(
          /feed fresh-a is stale: last new export file seen at .* \(27 h ago\), expected every 26 h/,
        ),
      }),
    ]);
    // The same file again is no new export; a new version of it is.
    await fleet.registry.expectFiles('fresh-a', 1001, 26 * HOUR, seenAt + 29 * HOUR, true);
    await checkFreshness(feeds, fleet.registry, alerts, seenAt + 29 * HOUR + 60_000);
    expect(stale().map((e) => e.state)).toEqual(['failing', 'resolved']);
    await alerts.close();
  });

  it('a feed that never showed a file is stale from when the fleet began watching it; runs lists it', async () => {
    const fleet = world.start();
    const silent = expectingFeed('fresh-never', false);
    const alerts = new FeedAlerts({
      config: loadAlertConfig({}),
      store: new RedisFeedHealthStore(fleet.connection, fleetKeys(fleet.config.prefix)),
      logger: captureLogs().logger,
    });
    const feeds = [await loadFeedFile(silent.feedFile)];
    const began = Date.now() - 30 * HOUR;
    await checkFreshness(feeds, fleet.registry, alerts, began);
    const [verdict] = await checkFreshness(feeds, fleet.registry, alerts, began + 30 * HOUR);
    expect(verdict).toMatchObject({
      stale: true,
      message: expect.stringContaining('no new export file since the fleet began watching it'),
    });

    const listed = await cli.run(['runs'], fleetProcessEnv(fleet.config, world.sandbox()));
    expect(listed.code, listed.describe()).toBe(0);
    expect(listed.stdout).toMatch(
      /^STALE {2}feed fresh-never is stale: no new export file since the fleet began watching it at /m,
    );

    // A feed that loses the key is no longer judged.
    writeFileSync(silent.feedFile, readFileSync(silent.feedFile, 'utf8').replace('  expectEvery: 26h\n', ''));
    expect(
      await checkFreshness([await loadFeedFile(silent.feedFile)], fleet.registry, alerts, Date.now()),
    ).toEqual([]);
    expect(await fleet.registry.freshness()).toEqual([]);
    await alerts.close();
  });
  it('runs --json --freshness: one JSON line per feed with its verdict; runs --json stays one run a line', async () => {
    const fleet = world.start();
    const alerts = new FeedAlerts({
      config: loadAlertConfig({}),
      store: new RedisFeedHealthStore(fleet.connection, fleetKeys(fleet.config.prefix)),
      logger: captureLogs().logger,
    });
    const delivered = expectingFeed('json-fresh', true);
    const [run] = await fleet.enqueue(delivered.feedFile);
    const silent = expectingFeed('json-stale', false);
    const began = Date.now() - 30 * HOUR;
    const feeds = [await loadFeedFile(delivered.feedFile), await loadFeedFile(silent.feedFile)];
    await checkFreshness(feeds, fleet.registry, alerts, began);
    await alerts.close();
    const env = fleetProcessEnv(fleet.config, world.sandbox());
    const jsonLines = (stdout: string) =>
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);

    const verdicts = await cli.run(['runs', '--json', '--freshness'], env);
    expect(verdicts.code, verdicts.describe()).toBe(0);
    expect(jsonLines(verdicts.stdout)).toEqual([
      {
        feed: 'json-fresh',
        accountId: 1001,
        freshness: 'fresh',
        lastNewAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        watchedSince: expect.stringMatching(/Z$/),
        expectEveryMs: 26 * HOUR,
        message: expect.stringMatching(/^feed json-fresh is fresh: last new export file seen at /),
      },
      {
        feed: 'json-stale',
        accountId: 1001,
        freshness: 'stale',
        lastNewAt: null,
        watchedSince: new Date(began).toISOString(),
        expectEveryMs: 26 * HOUR,
        message: expect.stringMatching(/^feed json-stale is stale: no new export file since/),
      },
    ]);
    const one = await cli.run(['runs', '--json', '--freshness', '--feed', 'json-stale'], env);
    expect(jsonLines(one.stdout).map((v) => v.feed)).toEqual(['json-stale']);
    // Text: the verdicts only, no run lines.
    const text = await cli.run(['runs', '--freshness'], env);
    expect(text.stdout).toMatch(
      /^fresh {2}feed json-fresh is fresh: .*\nSTALE {2}feed json-stale is stale: .*\n$/,
    );

    // Without --freshness, --json lines stay one run each, as scripts parse them.
    const listed = await cli.run(['runs', '--json'], env);
    expect(listed.code, listed.describe()).toBe(0);
    expect(jsonLines(listed.stdout)).toEqual([
      expect.objectContaining({ runId: run?.runId, state: 'running' }),
    ]);
  });
});
