import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetKeys } from '../../../src/fleet/keys.js';
import type { RecordOutcome } from '../../../src/sync/outcome.js';
import { buildSummary, RunTally } from '../../../src/sync/report/summary.js';
import { adminServers, get } from '../../support/admin-server.js';
import { fleetConsoleWorld } from '../../support/fleet-console.js';
import { testRedis } from '../../support/redis.js';

// The console over a fleet's Redis, mounted on an admin server as `worker` and `scheduler` mount it:
// runs stored through the run store's own calls (create, the run handle's batches, finish), the
// file registry's freshness clock, then the pages read back over HTTP.

const redis = testRedis();
const admin = adminServers(redis);
const keys = fleetKeys(admin.prefix);
const { store, registry, reconciles, health, source } = fleetConsoleWorld(admin.connection, keys, 86_400_000);
const TOKEN = 'console-admin-token-0123456789';
const HOUR = 3_600_000;

afterAll(() => redis.cleanup());

/** A finished fleet run of `outcomes`, stored as a worker stores one. */
async function storedRun(
  runId: string,
  feed: string,
  accountId: number,
  outcomes: RecordOutcome[],
  stop?: { code: string; message: string },
) {
  const startedAt = Date.now() - 60_000;
  await store.create({
    runId,
    feed,
    kind: 'transactions',
    accountId,
    file: `/exports/${feed}/export.csv`,
    sha256: 'a'.repeat(64),
    dryRun: false,
    startedAt: new Date(startedAt).toISOString(),
  });
  const handle = store.handle(runId, 'chunk:0');
  await handle.report.record(outcomes);
  const tally = new RunTally();
  for (const o of outcomes) tally.add(o);
  await handle.report.finish(
    buildSummary({
      runId,
      feed: { name: feed, kind: 'transactions', accountId },
      dryRun: false,
      startedAt,
      finishedAt: startedAt + 5_000,
      files: [{ path: `/exports/${feed}/export.csv`, sha256: 'a'.repeat(64), records: outcomes.length }],
      tally,
      ...(stop ? { stop: { ...stop, exitCode: 1 as const } } : {}),
    }),
  );
}

const created = (line: number): RecordOutcome => ({
  file: 'export.csv',
  line,
  externalId: `T-${line}`,
  outcome: 'created',
  serviceId: line,
  amount: '10.00',
});

beforeAll(async () => {
  // Tenant 1001: one run with two rejected rows among created ones (one message carrying markup).
  await storedRun('acme-bank-20261128T010000Z-aaaaaa', 'acme-bank', 1001, [
    created(2),
    {
      file: 'export.csv',
      line: 3,
      externalId: 'T-3',
      outcome: 'rejected',
      code: 'INVALID_AMOUNT',
      message: 'amount "12,3x" is not a number <script>alert(1)</script>',
      amount: '0',
    },
    created(4),
    {
      file: 'export.csv',
      line: 5,
      externalId: 'T-5',
      outcome: 'rejected',
      code: 'MISSING_DATE',
      message: 'bookingDate is empty',
    },
  ]);
  // Tenant 1002: a failed run: a record failed, then the service stopped it (the account closed).
  await storedRun(
    'beta-invoices-20261128T020000Z-bbbbbb',
    'beta-invoices',
    1002,
    [
      created(2),
      { file: 'export.csv', line: 3, externalId: 'INV-3', outcome: 'failed', code: 'HTTP_503', message: 'x' },
    ],
    { code: 'ACCOUNT_NOT_WRITABLE', message: 'the account 1002 is closed' },
  );
  // Tenant 1003: a run still going (meta only, no summary yet).
  await store.create({
    runId: 'gamma-bank-20261128T030000Z-cccccc',
    feed: 'gamma-bank',
    kind: 'transactions',
    accountId: 1003,
    file: '/exports/gamma/export.csv',
    sha256: 'b'.repeat(64),
    dryRun: false,
    startedAt: new Date().toISOString(),
  });
  // Tenant 1004: a stored summary that is not one (another version, edited by hand): shown as damaged.
  const damagedSummary = JSON.stringify({
    runId: 'delta-bank-20261128T040000Z-dddddd',
    state: 'completed',
    counts: 'many',
  });
  await store.create({
    runId: 'delta-bank-20261128T040000Z-dddddd',
    feed: 'delta-bank',
    kind: 'transactions',
    accountId: 1004,
    file: '/exports/delta/export.csv',
    sha256: 'c'.repeat(64),
    dryRun: false,
    startedAt: new Date().toISOString(),
  });
  await admin.connection.hset(keys.run('delta-bank-20261128T040000Z-dddddd'), 'summary', damagedSummary);
  await admin.connection.hset(keys.latestRuns(), '1004:delta-bank', `${Date.now()} ${damagedSummary}`);
  // A fleet reconcile of acme-bank with differences, stored as a reconcile job stores it.
  const report = await reconciles.report('rec-acme-bank-20261128T050000Z-eeeeee');
  await report.line({ verdict: 'equal', file: 'export.csv', line: 2, externalId: 'T-2' });
  await report.line({ verdict: 'missing', file: 'export.csv', line: 4, externalId: 'T-4', amount: '10.00' });
  await report.line({
    verdict: 'different',
    file: 'export.csv',
    line: 6,
    externalId: 'T-6',
    fields: [{ field: 'amount', source: '12.00', service: '21.00' }],
  });
  await report.finish({
    reconcileId: 'rec-acme-bank-20261128T050000Z-eeeeee',
    feed: 'acme-bank',
    kind: 'transactions',
    accountId: 1001,
    state: 'differences',
    startedAt: new Date(Date.now() - 30_000).toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: 30_000,
    files: ['/exports/acme-bank/export.csv'],
    counts: { equal: 1, missing: 1, different: 1, extra: 0, duplicate: 0, rejected: 0 },
    heldWithoutExternalId: 0,
    excluded: 0,
    controlTotals: { source: { records: 3, amount: '32.00' }, service: { records: 2, amount: '31.00' } },
    firstDifferences: [],
  });
  // Freshness: acme-bank watched for two hours, expected hourly, no new export: stale; beta fresh.
  await registry.expectFiles('acme-bank', 1001, HOUR, Date.now() - 2 * HOUR);
  await registry.expectFiles('beta-invoices', 1002, HOUR, Date.now() - 60_000, true);
  // Tenant 1005: watched for three hours, never a run: a row of its own, stale.
  await registry.expectFiles('epsilon-sftp', 1005, HOUR, Date.now() - 3 * HOUR);
  // The alerts the stopped run and the stale feed raised, as the fleet's feed health holds them.
  await health.update('beta-invoices', {
    runId: 'beta-invoices-20261128T020000Z-bbbbbb',
    failing: ['run-stopped:ACCOUNT_NOT_WRITABLE'],
  });
  await health.updateStale('epsilon-sftp', true);
});

describe('the console on a fleet admin server', () => {
  it('lists every tenant x feed worst first, with freshness, and the no-store and CSP headers', async () => {
    const server = await admin.start({}, { consoleSource: source });
    const page = await get(server, '/console');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const at = (feed: string) => page.text.indexOf(`>${feed}</a>`);
    for (const feed of ['acme-bank', 'beta-invoices', 'epsilon-sftp']) expect(at(feed)).toBeGreaterThan(0);
    // The overview lists finished runs: one still going is on its feed's history, not here.
    expect(at('gamma-bank')).toBe(-1);
    // Worst first: those needing a person (an open alert or stale), by state: the watched feed
    // with no run (ranked after failed), the stopped run, the run with rejected rows (stale).
    expect(at('epsilon-sftp')).toBeLessThan(at('beta-invoices'));
    expect(at('beta-invoices')).toBeLessThan(at('acme-bank'));
    expect(page.text).toContain('<th scope="col">Open alerts</th>');
    expect(page.text).toContain('<span class="alert">run stopped: ACCOUNT_NOT_WRITABLE</span>');
    expect(page.text).toContain('<span class="alert">no new export</span>');
    expect(page.text).toContain('no run within the retention');
    expect(page.text).toContain('Tenants × feeds, 3 of 3:');
    expect(page.text).toContain('<th scope="col">Freshness</th>');
    expect(page.text).toContain('<strong>stale</strong>');
    expect(page.text).toContain(
      'feed acme-bank is stale: no new export file since the fleet began watching it',
    );
    expect(page.text).toContain('feed beta-invoices is fresh: last new export file seen at');
    expect(page.text).toContain('/console/runs/acme-bank-20261128T010000Z-aaaaaa');
    expect(page.text).toContain('delta-bank-20261128T040000Z-dddddd');
    expect(page.text).toContain('the stored run is not a run summary');
    expect(page.text).not.toContain('>delta-bank</a>');
    expect(page.text).toContain('/console/reconciles/rec-acme-bank-20261128T050000Z-eeeeee');
  });

  it("shows a run's rejected records, escaped, searchable and as CSV", async () => {
    const server = await admin.start({}, { consoleSource: source });
    const run = await get(server, '/console/runs/acme-bank-20261128T010000Z-aaaaaa');
    expect(run.status).toBe(200);
    expect(run.headers.get('cache-control')).toBe('no-store');
    for (const text of ['T-3', 'INVALID_AMOUNT', 'T-5', 'MISSING_DATE']) expect(run.text).toContain(text);
    expect(run.text).not.toContain('<script>alert(1)</script>');
    expect(run.text).toContain('&lt;script&gt;');
    expect(run.text).not.toContain('T-2<');
    const searched = await get(server, '/console/runs/acme-bank-20261128T010000Z-aaaaaa?q=missing_date');
    expect(searched.text).toContain('T-5');
    expect(searched.text).not.toContain('INVALID_AMOUNT');
    const csv = await get(server, '/console/runs/acme-bank-20261128T010000Z-aaaaaa/records.csv');
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\n')).toHaveLength(3);
    const failed = await get(server, '/console/runs/beta-invoices-20261128T020000Z-bbbbbb');
    expect(failed.text).toContain('ACCOUNT_NOT_WRITABLE');
    expect(failed.text).toContain('INV-3');
    expect(failed.text).toContain('HTTP_503');
    const running = await get(server, '/console/runs/gamma-bank-20261128T030000Z-cccccc');
    expect(running.status).toBe(200);
    const damaged = await get(server, '/console/runs/delta-bank-20261128T040000Z-dddddd');
    expect(damaged.status).toBe(200);
    expect(damaged.text).toContain('the stored run is not a run summary');
    expect((await get(server, '/console/runs/no-such-run-20261128T030000Z-dddddd')).status).toBe(404);
    const history = await get(server, '/console/feeds/acme-bank');
    expect(history.status).toBe(200);
    expect(history.text).toContain('<svg');
  });

  it('shows a fleet reconcile: missing and different with both values, not the equal ones', async () => {
    const server = await admin.start({}, { consoleSource: source });
    const page = await get(server, '/console/reconciles/rec-acme-bank-20261128T050000Z-eeeeee');
    expect(page.status).toBe(200);
    for (const text of ['T-4', 'T-6', '12.00', '21.00']) expect(page.text).toContain(text);
    expect(page.text).not.toContain('T-2<');
    expect((await get(server, '/console/reconciles/rec-none-20261128T050000Z-ffffff')).status).toBe(404);
  });

  it('shows a stored reconcile that is not one as damaged, in the overview and on its page', async () => {
    const id = 'rec-old-20261128T060000Z-gggggg';
    const damagedSummary = JSON.stringify({ reconcileId: id, state: 'weird' });
    await admin.connection.set(keys.reconcile(id), damagedSummary);
    await admin.connection.hset(keys.latestReconciles(), '1009:old-bank', `${Date.now()} ${damagedSummary}`);
    const server = await admin.start({}, { consoleSource: source });
    const overview = await get(server, '/console');
    expect(overview.text).toContain(id);
    expect(overview.text).toContain('the stored reconcile is not a reconcile summary: ');
    const page = await get(server, `/console/reconciles/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('the stored reconcile is not a reconcile summary: ');
    // The good one beside it is still shown as before.
    expect((await get(server, '/console/reconciles/rec-acme-bank-20261128T050000Z-eeeeee')).status).toBe(200);
  });

  it('asks for the admin credentials when they are configured, and stays read-only', async () => {
    const server = await admin.start({ credentials: { token: TOKEN } }, { consoleSource: source });
    const refused = await get(server, '/console');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('erp-bridge admin');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.text).not.toContain('acme-bank');
    expect((await get(server, '/console/runs/acme-bank-20261128T010000Z-aaaaaa')).status).toBe(401);
    const opened = await get(server, '/console', { authorization: `Bearer ${TOKEN}` });
    expect(opened.status).toBe(200);
    expect(opened.text).toContain('acme-bank');
    expect(opened.text).not.toContain(TOKEN);
    const posted = await fetch(`${server.url}/console`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(posted.status).toBe(405);
  });

  it('has no /console without a console source', async () => {
    const server = await admin.start();
    expect((await get(server, '/console')).status).toBe(404);
  });
});
