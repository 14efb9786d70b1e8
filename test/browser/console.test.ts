import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RecordOutcome } from '../../src/sync/outcome.js';
import { SEEDED, storeRun } from '../support/console-fleet.js';
import { consoleWorld } from './support/console-world.js';
import { contrastRatio, effectiveBackground, parseColor, ratios, textSamples } from './support/contrast.js';
import { tabStops, tabTo } from './support/keyboard.js';

// Every console page in Chromium over a fleet's Redis: what each shows, the keyboard path through
// it, its text contrast and its CSP. Rows are found by their text (tenant, feed, id), never by
// column position: the overview grows columns.

/** Tenant 1005: 60 rejected rows, more than one page of 50 (the console's default page size). */
const PAGED_RUN = 'epsilon-bank-20261128T060000Z-ffffff';
const rejectedRow = (line: number): RecordOutcome => ({
  file: 'export.csv',
  line,
  externalId: `E-${line}`,
  outcome: 'rejected',
  ...(line % 3 === 0
    ? { code: 'INVALID_AMOUNT', message: `amount of row ${line} is not a number` }
    : { code: 'MISSING_DATE', message: `bookingDate of row ${line} is empty` }),
  amount: `${line}.50`,
});
const LINES = Array.from({ length: 60 }, (_, i) => i + 2);

const w = consoleWorld((fleet) =>
  storeRun(fleet, { runId: PAGED_RUN, feed: 'epsilon-bank', accountId: 1005 }, LINES.map(rejectedRow)),
);

const PAGES = {
  overview: '/console',
  'run-rejected': `/console/runs/${PAGED_RUN}`,
  'run-failed': `/console/runs/${SEEDED.failedRun}`,
  'feed-history': '/console/feeds/acme-bank',
  reconcile: `/console/reconciles/${SEEDED.reconcile}`,
} as const;

/** A table of the page by its caption's start. */
const table = (page: Page, caption: string) =>
  page.locator('table').filter({ has: page.locator('caption', { hasText: caption }) });
/** The body rows of that table. */
const rows = (page: Page, caption: string) => table(page, caption).locator('tbody tr');
/** The overview's row of a feed (by its feed link). */
const feedRow = (page: Page, feed: string) =>
  rows(page, 'Tenants × feeds').filter({ has: page.getByRole('link', { name: feed, exact: true }) });

describe('the console in Chromium, over a fleet of several tenants', () => {
  it('overview: every tenant x feed worst first with its state, sort links and a filter that narrow it', async () => {
    const page = await w.open(PAGES.overview);
    await expect(page.title()).resolves.toBe('Runs · erp-bridge console');
    // The stylesheet applied (the CSP lets 'self' styles in): the table is laid out as designed.
    const collapse = "getComputedStyle(document.querySelector('table')).borderCollapse";
    expect(await page.evaluate(collapse)).toBe('collapse');

    const beta = feedRow(page, 'beta-invoices');
    await expect(beta.locator('.state').textContent()).resolves.toBe('stopped');
    expect(await beta.getByRole('link', { name: /UTC$/ }).getAttribute('href')).toBe(
      `/console/runs/${SEEDED.failedRun}`,
    );
    const acme = feedRow(page, 'acme-bank');
    await expect(acme.locator('.state').textContent()).resolves.toBe('completed with errors');
    expect(await acme.textContent()).toContain('stale');
    await expect(feedRow(page, 'epsilon-bank').locator('.state').textContent()).resolves.toBe(
      'completed with errors',
    );
    // A watched feed with no run: its own row, with the alert its staleness raised.
    const zeta = feedRow(page, 'zeta-sftp');
    await expect(zeta.locator('.state').textContent()).resolves.toBe('no run');
    await expect(zeta.locator('.alert').allTextContents()).resolves.toEqual(['no new export']);
    await expect(beta.locator('.alert').allTextContents()).resolves.toEqual([
      'run stopped: ACCOUNT_NOT_WRITABLE',
    ]);
    // A feed whose first run is under way: running, with a link to that run.
    const gamma = feedRow(page, 'gamma-bank');
    await expect(gamma.locator('.state').textContent()).resolves.toBe('running');
    expect(await gamma.getByRole('link', { name: /under way since/ }).getAttribute('href')).toBe(
      `/console/runs/${SEEDED.runningRun}`,
    );
    // Worst first: those needing a person (an alert or stale: the feed with no run, the stopped
    // run, the stale one with rejected rows), then the rest by state (rejected rows, running).
    const order = (await rows(page, 'Tenants × feeds').locator('th[scope=row] a').allTextContents()).filter(
      (f) => ['zeta-sftp', 'beta-invoices', 'acme-bank', 'epsilon-bank', 'gamma-bank'].includes(f),
    );
    expect(order).toEqual(['zeta-sftp', 'beta-invoices', 'acme-bank', 'epsilon-bank', 'gamma-bank']);
    const reconcile = rows(page, 'Reconciles').filter({ hasText: 'acme-bank' });
    await expect(reconcile.locator('.state').textContent()).resolves.toBe('differences');
    expect(await page.locator('table', { hasText: SEEDED.damagedRun }).textContent()).toContain(
      'the stored run is not a run summary',
    );
    await w.shoot(page, 'overview');

    // A sort link: tenants ascending, 1001 first.
    await page.getByRole('link', { name: 'Tenant', exact: true }).click();
    await page.waitForURL(/sort=tenant/);
    const tenants = await rows(page, 'Tenants × feeds').locator('td:first-child').allTextContents();
    expect(tenants.map(Number)).toEqual([...tenants.map(Number)].sort((a, b) => a - b));
    expect(tenants[0]).toBe('1001');

    // The filter form (form-action 'self' lets it submit): only the feeds matching "beta".
    await page.getByRole('searchbox').fill('beta');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/q=beta/);
    const left = await rows(page, 'Tenants × feeds').locator('th[scope=row] a').allTextContents();
    expect(left).toEqual(['beta-invoices']);

    // The listener is live: markup breaking the CSP is reported (and then forgotten for this case).
    await page.evaluate(
      `document.body.insertAdjacentHTML('beforeend', '<img alt="" src="https://example.invalid/x.png">')`,
    );
    await expect.poll(() => w.problems.join('\n')).toContain('CSP violation: img-src');
    w.problems.length = 0;
  });

  it('a run with rejected rows: its records, a search that narrows them, paging and the CSV download', async () => {
    const page = await w.open(PAGES['run-rejected']);
    const records = rows(page, 'Records, page 1');
    await expect(records.count()).resolves.toBe(50);
    const first = records.filter({ has: page.getByRole('rowheader', { name: 'E-2', exact: true }) });
    const cells = await first.locator('td, th').allTextContents();
    for (const value of ['2', 'E-2', 'rejected', 'MISSING_DATE', 'bookingDate of row 2 is empty', '2.50'])
      expect(cells).toContain(value);
    expect(await page.locator('main').textContent()).toContain('60 records.');
    await w.shoot(page, 'run-rejected');

    // Paging: the next page holds the other 10, and leads back.
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/page=2/);
    await expect(rows(page, 'Records, page 2').count()).resolves.toBe(10);
    expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('Page 2 of 2');
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL(/page=1/);

    // The search form narrows to one code: 20 of the 60 rows (every third line).
    await page.getByRole('searchbox').fill('invalid_amount');
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL(/q=invalid_amount/);
    const found = await rows(page, 'Records, page 1').locator('th[scope=row]').allTextContents();
    expect(found).toEqual(LINES.filter((l) => l % 3 === 0).map((l) => `E-${l}`));
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);

    // The CSV link keeps the search; it answers text/csv, and the browser downloads it.
    const link = page.getByRole('link', { name: 'Download them as CSV' });
    const href = await link.getAttribute('href');
    expect(href).toBe(`/console/runs/${PAGED_RUN}/records.csv?q=invalid_amount`);
    const answer = await page.request.get(`${w.server.url}${href}`);
    expect(answer.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`${PAGED_RUN}-records.csv`);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv[0]).toBe('file,line,key,externalId,outcome,code,message,amount');
    expect(csv).toHaveLength(21);
  });

  it('a run whose message carries markup shows it as text, and no script runs', async () => {
    const page = await w.open(`/console/runs/${SEEDED.rejectedRun}`);
    const row = rows(page, 'Records, page 1').filter({ hasText: 'INVALID_AMOUNT' });
    expect(await row.textContent()).toContain('amount "12,3x" is not a number <script>alert(1)</script>');
    expect(await page.locator('script').count()).toBe(0);
  });

  it('the failed run: stopped, why, and its failed record', async () => {
    const page = await w.open(PAGES['run-failed']);
    await expect(page.locator('dd .state').textContent()).resolves.toBe('stopped');
    const stopped = page.locator('dt', { hasText: 'Stopped' }).locator('xpath=following-sibling::dd[1]');
    expect(await stopped.textContent()).toBe('ACCOUNT_NOT_WRITABLE the account 1002 is closed');
    const record = rows(page, 'Records, page 1').filter({ hasText: 'INV-3' });
    const cells = await record.locator('td, th').allTextContents();
    for (const value of ['3', 'INV-3', 'failed', 'HTTP_503']) expect(cells).toContain(value);
    await w.shoot(page, 'run-failed');
  });

  it("a feed's history: the chart as one named image, and its numbers in a table", async () => {
    const page = await w.open(PAGES['feed-history']);
    const chart = page.getByRole('img', { name: /^Records and rejected records per run of acme-bank/ });
    await expect(chart.isVisible()).resolves.toBe(true);
    expect(await chart.getAttribute('aria-label')).toContain('"Runs, newest first"');
    await expect(chart.locator('path').count()).resolves.toBe(2);
    const run = rows(page, 'Runs, newest first').filter({
      has: page.locator(`a[href="/console/runs/${SEEDED.rejectedRun}"]`),
    });
    const cells = await run.locator('td').allTextContents();
    // Tenant, state, records, rejected, failed.
    expect(cells).toEqual(['1001', 'completed with errors', '4', '2', '0']);
    await w.shoot(page, 'feed-history');
  });

  it('the reconcile with differences: missing, different with both values, extra, and the totals', async () => {
    const page = await w.open(PAGES.reconcile);
    await expect(page.locator('dd .state').textContent()).resolves.toBe('differences');
    const totals = async (side: string) =>
      rows(page, 'Control totals')
        .filter({ has: page.getByRole('rowheader', { name: side }) })
        .locator('td')
        .allTextContents();
    expect(await totals('exports')).toEqual(['3', '32.00']);
    expect(await totals('service')).toEqual(['3', '40.00']);
    const verdicts = table(page, 'Verdicts');
    const heads = await verdicts.locator('thead th').allTextContents();
    const counts = await verdicts.locator('tbody td').allTextContents();
    expect(Object.fromEntries(heads.map((h, i) => [h, counts[i]]))).toMatchObject({
      missing: '1',
      different: '1',
      extra: '1',
      equal: '1',
    });
    const line = (id: string) =>
      rows(page, 'Lines').filter({ has: page.getByRole('rowheader', { name: id, exact: true }) });
    expect(await line('T-4').locator('td').first().textContent()).toBe('missing');
    expect(await line('T-4').textContent()).toContain('10.00');
    expect(await line('T-6').locator('td').first().textContent()).toBe('different');
    expect(await line('T-6').locator('li').textContent()).toBe('amount: export 12.00, service 21.00');
    expect(await line('X-9').locator('td').first().textContent()).toBe('extra');
    expect(await line('X-9').textContent()).toContain('in the service, not in the exports');
    await expect(line('T-2').count()).resolves.toBe(0);
    await w.shoot(page, 'reconcile');
  });

  it('keyboard: Tab walks the overview top down with a visible focus, and Enter opens a run', async () => {
    const page = await w.open(PAGES.overview);
    const stops = await tabStops(page);
    const at = (what: string | RegExp) =>
      stops.findIndex((s) => (typeof what === 'string' ? s.what === what : what.test(s.what)));
    const path = [
      'a "Skip to content"',
      'a "erp-bridge console"',
      'input[name=q]',
      'select[name=state]',
      'button "Filter"',
      /^a "Tenant/,
      /^a "State/,
      'a "beta-invoices"',
    ].map(at);
    expect(
      path.every((i) => i >= 0),
      JSON.stringify(stops.map((s) => s.what)),
    ).toBe(true);
    expect(path).toEqual([...path].sort((a, b) => a - b));
    // The first run link comes after the sort links, in its row after its feed link.
    const firstRun = stops.findIndex((s) => s.href?.startsWith('/console/runs/'));
    expect(firstRun).toBeGreaterThan(path.at(-1) ?? Number.POSITIVE_INFINITY);

    // The skip link, first, shows on screen when focused; Enter on it skips the header: the next
    // Tab lands on the filter's search box.
    await page.reload();
    await page.keyboard.press('Tab');
    const skip = await page.getByRole('link', { name: 'Skip to content' }).boundingBox();
    expect(skip?.x).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.name')).toBe('q');

    // Enter on the first run link (the worst row's) opens that run.
    await page.reload();
    const href = await tabTo(page, /^\/console\/runs\//);
    expect(href).toBe(`/console/runs/${SEEDED.failedRun}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${w.server.url}${href}`);
    await expect(page.locator('h1').textContent()).resolves.toBe(`Run ${SEEDED.failedRun}`);
  });

  it('keyboard: every stop of every page shows a focus outline of its own, 3:1 against the page', async () => {
    for (const [name, path] of Object.entries(PAGES)) {
      const page = await w.open(path);
      const stops = await tabStops(page);
      expect(stops.length, name).toBeGreaterThan(2);
      for (const stop of stops) {
        // Thicker than Chromium's own 1px ring: the console's outline, not the browser's default.
        expect(stop.outlineWidth, `${name}: ${stop.what} (${stop.outline})`).toBeGreaterThanOrEqual(2);
        const ratio = contrastRatio(parseColor(stop.outlineColor), effectiveBackground(stop.around));
        expect(ratio, `${name}: ${stop.what} outline`).toBeGreaterThanOrEqual(3);
      }
      if (name === 'run-rejected') {
        const order = ['input[name=q]', 'button "Search"', 'a "Download them as CSV"', 'a "Next page"'].map(
          (what) => stops.findIndex((s) => s.what === what),
        );
        expect(order.every((i) => i >= 0)).toBe(true);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }
      await page.close();
    }
  });

  it('contrast and size: all text on every page 4.5:1 or more against its background, badges included; 13px or more; the page fits the window', async () => {
    expect(contrastRatio(parseColor('rgb(0, 0, 0)'), parseColor('rgb(255, 255, 255)'))).toBe(21);
    expect(contrastRatio(parseColor('rgb(118, 118, 118)'), parseColor('rgb(255, 255, 255)'))).toBeCloseTo(
      4.54,
      2,
    );
    const seen: string[] = [];
    for (const [name, path] of Object.entries(PAGES)) {
      const page = await w.open(path);
      const measured = ratios(await textSamples(page));
      seen.push(...measured.map((m) => m.what));
      const low = measured.filter((m) => m.ratio < 4.5).map((m) => `${name}: ${m.what} ${m.ratio}:1`);
      expect(low).toEqual([]);
      // Readable size too: nothing under 13px (a bare `monospace` font once made codes 11.7px).
      const small = measured.filter((m) => m.fontSize < 13).map((m) => `${name}: ${m.what} ${m.fontSize}px`);
      expect(small).toEqual([]);
      // And it fits the window (1280px): no sideways scrolling to reach a column.
      expect(await page.evaluate('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(1280);
      await page.close();
    }
    // What was measured covers the kinds of text the task names: body text, cells, links, badges.
    for (const kind of [
      /^p /,
      /^td /,
      /^th /,
      /^a /,
      /^span\.state\.state-stopped /,
      /^span\.state\.state-completed_with_errors /,
      /^span\.state\.state-no_run /,
      /^span\.state\.state-running /,
      /^span\.alert /,
      /^span\.state\.state-differences /,
      /^span\.state\.state-damaged /,
      /^span\.muted /,
      /^code /,
      /^button /,
      /^caption /,
    ])
      expect(
        seen.some((s) => kind.test(s)),
        String(kind),
      ).toBe(true);
  });
});
