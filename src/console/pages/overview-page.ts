import type { FeedRow, Overview } from '../console-source.js';
import { type Html, html } from '../html.js';
import { RUN_STATES } from '../summary-schemas.js';
import { baseName, href, layout, stateLabel, when } from './layout.js';

export const SORTS = ['state', 'tenant', 'feed', 'when', 'records', 'rejected', 'failed'] as const;
export type Sort = (typeof SORTS)[number];

export interface OverviewQuery {
  sort: Sort;
  dir: 'asc' | 'desc';
  /** Text searched in the feed's name, kind and tenant; '' = all. */
  q: string;
  /** Only rows whose last run is in this state; '' = all. */
  state: string;
}

/** Worst first: a failed run above one with rejected rows above a clean one. */
const severity = (row: FeedRow) => RUN_STATES.indexOf(row.last.state);

const COMPARE: Record<Sort, (a: FeedRow, b: FeedRow) => number> = {
  state: (a, b) => severity(a) - severity(b) || b.last.startedAt.localeCompare(a.last.startedAt),
  tenant: (a, b) => a.accountId - b.accountId || a.feed.localeCompare(b.feed),
  feed: (a, b) => a.feed.localeCompare(b.feed) || a.accountId - b.accountId,
  when: (a, b) => a.last.startedAt.localeCompare(b.last.startedAt),
  records: (a, b) => a.last.controlTotals.all.records - b.last.controlTotals.all.records,
  rejected: (a, b) => a.last.counts.rejected - b.last.counts.rejected,
  failed: (a, b) => a.last.counts.failed - b.last.counts.failed,
};

/** The rows the query asks for, in its order. */
export function selectRows(rows: readonly FeedRow[], query: OverviewQuery): FeedRow[] {
  const needle = query.q.toLowerCase();
  const kept = rows.filter(
    (r) =>
      (query.state === '' || r.last.state === query.state) &&
      (needle === '' ||
        r.feed.toLowerCase().includes(needle) ||
        r.kind.toLowerCase().includes(needle) ||
        String(r.accountId).includes(needle)),
  );
  const compare = COMPARE[query.sort];
  return kept.sort((a, b) => (query.dir === 'asc' ? compare(a, b) : compare(b, a)));
}

/** The natural direction of each column: worst and newest and most first. */
const DEFAULT_DIR: Record<Sort, 'asc' | 'desc'> = {
  state: 'asc',
  tenant: 'asc',
  feed: 'asc',
  when: 'desc',
  records: 'desc',
  rejected: 'desc',
  failed: 'desc',
};

export const defaultDir = (sort: Sort) => DEFAULT_DIR[sort];

function sortHeader(label: string, sort: Sort, query: OverviewQuery, numeric = false): Html {
  const active = query.sort === sort;
  const dir = active ? (query.dir === 'asc' ? 'desc' : 'asc') : DEFAULT_DIR[sort];
  const aria = active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  const link = href('/console', { ...query, sort, dir });
  return html`<th scope="col"${numeric ? html` class="num"` : ''}${aria ? html` aria-sort="${aria}"` : ''}><a href="${link}">${label}${active ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}</a></th>`;
}

function row(r: FeedRow, freshness: boolean): Html {
  const lastFile = r.last.files.at(-1);
  return html`<tr>
<td>${r.accountId}</td>
<th scope="row"><a href="/console/feeds/${encodeURIComponent(r.feed)}">${r.feed}</a> <span class="muted">${r.kind}</span></th>
<td>${stateLabel(r.last.state)}${r.last.dryRun ? ' (dry run)' : ''}</td>
<td><a href="/console/runs/${encodeURIComponent(r.last.runId)}">${when(r.last.startedAt)}</a></td>
<td class="num">${r.last.controlTotals.all.records}</td>
<td class="num">${r.last.counts.created + r.last.counts.updated}</td>
<td class="num">${r.last.counts.rejected}</td>
<td class="num">${r.last.counts.failed}</td>
<td>${lastFile ? baseName(lastFile.path) : html`<span class="muted">none</span>`}</td>
<td class="num">${r.runs}</td>
${freshness ? html`<td>${freshnessCell(r)}</td>` : ''}
</tr>`;
}

/** Stale or fresh with the fleet's own sentence (when it last saw a new export, how often expected). */
function freshnessCell(r: FeedRow): Html {
  if (!r.freshness) return html`<span class="muted">not watched (no source.expectEvery)</span>`;
  return html`${r.freshness.stale ? html`<strong>stale</strong>` : 'fresh'} <span class="muted">${r.freshness.message}</span>`;
}

export function overviewPage(overview: Overview, query: OverviewQuery): Html {
  const rows = selectRows(overview.rows, query);
  // Only a source that judges freshness (the fleet's) gets the column: report folders know nothing of it.
  const freshness = overview.rows.some((r) => r.freshness !== undefined);
  const states = RUN_STATES.map(
    (s) =>
      html`<option value="${s}"${query.state === s ? html` selected` : ''}>${s.replace(/_/g, ' ')}</option>`,
  );
  const body = html`<form method="get" action="/console" role="search">
<label>Feed, kind or tenant <input type="search" name="q" value="${query.q}"></label>
<label>Last run <select name="state"><option value="">any state</option>${states}</select></label>
<input type="hidden" name="sort" value="${query.sort}"><input type="hidden" name="dir" value="${query.dir}">
<button type="submit">Filter</button>
</form>
<table>
<caption>Tenants × feeds, ${rows.length} of ${overview.rows.length}: last run of each</caption>
<thead><tr>
${sortHeader('Tenant', 'tenant', query)}${sortHeader('Feed', 'feed', query)}${sortHeader('State', 'state', query)}${sortHeader('Started', 'when', query)}${sortHeader('Records', 'records', query, true)}<th scope="col" class="num">Written</th>${sortHeader('Rejected', 'rejected', query, true)}${sortHeader('Failed', 'failed', query, true)}<th scope="col">Last file</th><th scope="col" class="num">Runs</th>${freshness ? html`<th scope="col">Freshness</th>` : ''}
</tr></thead>
<tbody>${rows.map((r) => row(r, freshness))}</tbody>
</table>
${rows.length === 0 ? html`<p>No run matches.</p>` : ''}
${reconciles(overview)}
${damaged(overview)}`;
  return layout('Runs', body);
}

function reconciles(overview: Overview): Html | string {
  if (overview.reconciles.length === 0) return '';
  const rows = [...overview.reconciles].sort(
    (a, b) => a.accountId - b.accountId || a.feed.localeCompare(b.feed),
  );
  return html`<table>
<caption>Reconciles: the last of each tenant × feed</caption>
<thead><tr><th scope="col">Tenant</th><th scope="col">Feed</th><th scope="col">Verdict</th><th scope="col">Started</th><th scope="col" class="num">Missing</th><th scope="col" class="num">Different</th><th scope="col" class="num">Extra</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><td>${r.accountId}</td><th scope="row">${r.feed}</th><td>${stateLabel(r.last.state)}</td>
<td><a href="/console/reconciles/${encodeURIComponent(r.last.reconcileId)}">${when(r.last.startedAt)}</a></td>
<td class="num">${r.last.counts.missing}</td><td class="num">${r.last.counts.different}</td><td class="num">${r.last.counts.extra}</td></tr>`,
  )}</tbody>
</table>`;
}

function damaged(overview: Overview): Html | string {
  if (overview.damaged.length === 0) return '';
  return html`<table>
<caption>Report folders that cannot be read (${overview.damaged.length})</caption>
<thead><tr><th scope="col">Folder</th><th scope="col">Problem</th></tr></thead>
<tbody>${overview.damaged.map((d) => html`<tr><th scope="row">${stateLabel('damaged')} ${d.id}</th><td>${d.problem}</td></tr>`)}</tbody>
</table>`;
}
