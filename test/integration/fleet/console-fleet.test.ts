import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminServers, get } from '../../support/admin-server.js';
import { consoleFleet, seedConsoleFleet } from '../../support/console-fleet.js';
import { testRedis } from '../../support/redis.js';

// The console over a fleet's Redis, mounted on an admin server as `worker` and `scheduler` mount it:
// runs stored through the run store's own calls (create, the run handle's batches, finish), the
// file registry's freshness clock, then the pages read back over HTTP (seeding: ../../support/console-fleet.ts).

const redis = testRedis();
const admin = adminServers(redis);
const fleet = consoleFleet(admin.connection, admin.prefix);
const source = fleet.source;
const TOKEN = 'console-admin-token-0123456789';

afterAll(() => redis.cleanup());

beforeAll(() => seedConsoleFleet(fleet));

describe('the console on a fleet admin server', () => {
  it('lists every tenant x feed worst first, with freshness, and the no-store and CSP headers', async () => {
    const server = await admin.start({}, { consoleSource: source });
    const page = await get(server, '/console');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const at = (feed: string) => page.text.indexOf(`>${feed}</a>`);
    for (const feed of ['acme-bank', 'beta-invoices', 'zeta-sftp', 'gamma-bank'])
      expect(at(feed)).toBeGreaterThan(0);
    // A feed whose first run is under way: a row, running, with a link to that run.
    const gamma = page.text.slice(at('gamma-bank') - 200, at('gamma-bank') + 800);
    expect(gamma).toContain('its first run is under way');
    expect(gamma).toContain('href="/console/runs/gamma-bank-20261128T030000Z-cccccc">a run under way since');
    // Worst first: those needing a person (an open alert or stale), by state: the watched feed
    // with no run (ranked after failed), the stopped run, the run with rejected rows (stale).
    expect(at('zeta-sftp')).toBeLessThan(at('beta-invoices'));
    expect(at('beta-invoices')).toBeLessThan(at('acme-bank'));
    expect(page.text).toContain('<th scope="col">Open alerts</th>');
    expect(page.text).toContain('<span class="alert">run stopped: ACCOUNT_NOT_WRITABLE</span>');
    expect(page.text).toContain('<span class="alert">no new export</span>');
    expect(page.text).toContain('no run within the retention');
    expect(page.text).toContain('Tenants × feeds, 4 of 4:');
    // Running rows after those needing a person.
    expect(at('acme-bank')).toBeLessThan(at('gamma-bank'));
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
    await admin.connection.set(fleet.keys.reconcile(id), damagedSummary);
    await admin.connection.hset(
      fleet.keys.latestReconciles(),
      '1009:old-bank',
      `${Date.now()} ${damagedSummary}`,
    );
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
