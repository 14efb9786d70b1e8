import { describe, expect, it } from 'vitest';
import type { FeedRow, Overview } from '../../../src/console/console-source.js';
import {
  OVERVIEW_PAGE_ROWS,
  type OverviewQuery,
  overviewPage,
  selectRows,
} from '../../../src/console/pages/overview-page.js';
import { ConsoleRun } from '../../../src/console/summary-schemas.js';
import { runSummary } from '../../support/console-folders.js';

// The overview of a large fleet: 250 tenants, pages of OVERVIEW_PAGE_ROWS that keep the query,
// and rows that need a person (an open alert, stale, no run) above the rest.

const row = (accountId: number, extra: Partial<FeedRow> = {}): FeedRow => ({
  accountId,
  feed: `feed-${accountId}`,
  kind: 'transactions',
  last: ConsoleRun.parse(
    runSummary({
      runId: `run-${accountId}`,
      feed: `feed-${accountId}`,
      accountId,
      startedAt: `2026-11-01T${String(accountId % 24).padStart(2, '0')}:00:00.000Z`,
      counts: { created: accountId },
    }),
  ),
  runs: 1,
  alerts: [],
  ...extra,
});

const overview = (rows: FeedRow[]): Overview => ({
  rows,
  reconciles: [],
  damaged: [],
  knows: { runs: false, freshness: true, alerts: true },
});

const query = (q: Partial<OverviewQuery> = {}): OverviewQuery => ({
  sort: 'tenant',
  dir: 'asc',
  q: '',
  state: '',
  page: 1,
  ...q,
});

const tenantsOn = (text: string) => [...text.matchAll(/<tr>\n<td>(\d+)<\/td>/g)].map((m) => Number(m[1]));

describe('the overview of 250 tenants', () => {
  const rows = Array.from({ length: 250 }, (_, i) => row(1000 + i));

  it('shows one page of rows at a time, with links to the others that keep the query', () => {
    const first = overviewPage(overview(rows), query({ q: '1', sort: 'tenant' })).text;
    const matching = selectRows(rows, query({ q: '1' })).length;
    expect(matching).toBe(250);
    expect(tenantsOn(first)).toEqual(Array.from({ length: OVERVIEW_PAGE_ROWS }, (_, i) => 1000 + i));
    expect(first).toContain('Tenants × feeds, 250 of 250, rows 1–100');
    expect(first).toContain('Page 1 of 3');
    expect(first).toContain('href="/console?q=1&amp;sort=tenant&amp;dir=asc&amp;page=2"');
    expect(first).not.toContain('Previous page');

    const last = overviewPage(overview(rows), query({ q: '1', page: 3 })).text;
    expect(tenantsOn(last)).toEqual(Array.from({ length: 50 }, (_, i) => 1200 + i));
    expect(last).toContain('rows 201–250');
    expect(last).toContain('href="/console?q=1&amp;sort=tenant&amp;dir=asc&amp;page=2"');
    expect(last).not.toContain('Next page');
  });

  it('a page past the end shows the last; a new sort starts at page 1', () => {
    const text = overviewPage(overview(rows), query({ page: 99 })).text;
    expect(tenantsOn(text)[0]).toBe(1200);
    expect(text).toContain('Page 3 of 3');
    // The sort links carry no page: a new order from its top.
    expect(text).toContain('href="/console?sort=feed&amp;dir=asc"');
    expect(text).not.toMatch(/href="\/console\?[^"]*sort=feed[^"]*page=/);
  });

  it('one page only: no pager', () => {
    const text = overviewPage(overview(rows.slice(0, 20)), query()).text;
    expect(text).not.toContain('aria-label="Pages"');
    expect(tenantsOn(text)).toHaveLength(20);
  });

  it('worst first: open alerts and stale feeds, then by state, before clean runs', () => {
    const clean = row(1);
    const failedRun = row(2, { last: { ...row(2).last, state: 'failed' } as FeedRow['last'] });
    const alerting = row(3, { alerts: ['many rows rejected'] });
    const stale = row(4, {
      freshness: {
        stale: true,
        brief: 'no new export in 3 h of watching; every 1 h expected',
        message: 'feed feed-4 is stale',
      },
    });
    const noRun: FeedRow = { accountId: 5, feed: 'feed-5', kind: '', runs: 0, alerts: [] };
    const sorted = selectRows([clean, failedRun, alerting, stale, noRun], query({ sort: 'state' }));
    // Alerting and stale (both completed, newest first) need a person; then by state: failed,
    // the watched feed with no run, the clean run. (The failed run's own alert is not set here.)
    expect(sorted.map((r) => r.accountId)).toEqual([4, 3, 2, 5, 1]);
    const text = overviewPage(overview([noRun]), query()).text;
    expect(text).toContain('no run within the retention');
  });
});
