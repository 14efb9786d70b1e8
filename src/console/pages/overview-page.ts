import type { FeedRow, Overview, ReconcileRow } from '../console-source.js';
import { type Html, html } from '../html.js';
import { RUN_STATES } from '../summary-schemas.js';
import { baseName, href, layout, stateLabel, when } from './layout.js';
import { pager } from './pager.js';

export const SORTS = ['state', 'tenant', 'feed', 'when', 'records', 'rejected', 'failed'] as const;
export type Sort = (typeof SORTS)[number];

/** Rows per page of the overview: a fleet of 1,000 tenants is 3,000 rows. */
export const OVERVIEW_PAGE_ROWS = 100;

/** The state filter's value for watched feeds with no run the source holds. */
export const NO_RUN = 'no_run';

export interface OverviewQuery {
  sort: Sort;
  dir: 'asc' | 'desc';
  /** Text searched in the feed's name, kind and tenant; '' = all. */
  q: string;
  /** Only rows whose last run is in this state (NO_RUN: none); '' = all. */
  state: string;
  /** 1-based page of OVERVIEW_PAGE_ROWS rows. */
  page: number;
}

/** Open alerts or a stale feed: a row that needs a person, whatever its last run's state. */
const troubled = (row: FeedRow) => (row.alerts?.length ?? 0) > 0 || row.freshness?.stale === true;

/**
 * A watched feed with no run ranks right after a failed one (its exports stopped or never came);
 * a feed whose first run is under way, as running.
 */
const stateRank = (row: FeedRow) =>
  row.last ? RUN_STATES.indexOf(row.last.state) : row.running ? RUN_STATES.indexOf('running') : 0.5;

/** The state filter: the last run's state; "running" also finds rows with a run under way. */
const inState = (row: FeedRow, state: string) =>
  state === '' ||
  (row.last?.state ?? (row.running ? 'running' : NO_RUN)) === state ||
  (state === 'running' && row.running !== undefined);
const started = (row: FeedRow) => row.last?.startedAt ?? '';
const count = (row: FeedRow, outcome: 'rejected' | 'failed') => row.last?.counts[outcome] ?? -1;

/**
 * Worst first: feeds with an open alert or stale, then by the last run's state (failed,
 * interrupted, stopped, with errors, running, completed), newest first.
 */
const COMPARE: Record<Sort, (a: FeedRow, b: FeedRow) => number> = {
  state: (a, b) =>
    Number(troubled(b)) - Number(troubled(a)) ||
    stateRank(a) - stateRank(b) ||
    started(b).localeCompare(started(a)),
  tenant: (a, b) => a.accountId - b.accountId || a.feed.localeCompare(b.feed),
  feed: (a, b) => a.feed.localeCompare(b.feed) || a.accountId - b.accountId,
  when: (a, b) => started(a).localeCompare(started(b)),
  records: (a, b) => (a.last?.controlTotals.all.records ?? -1) - (b.last?.controlTotals.all.records ?? -1),
  rejected: (a, b) => count(a, 'rejected') - count(b, 'rejected'),
  failed: (a, b) => count(a, 'failed') - count(b, 'failed'),
};

/** The rows the query asks for, in its order (every page of them). */
export function selectRows(rows: readonly FeedRow[], query: Omit<OverviewQuery, 'page'>): FeedRow[] {
  const needle = query.q.toLowerCase();
  const kept = rows.filter(
    (r) =>
      inState(r, query.state) &&
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
  // A new order starts at its first page.
  const link = href('/console', { ...query, sort, dir, page: undefined });
  return html`<th scope="col"${numeric ? html` class="num"` : ''}${aria ? html` aria-sort="${aria}"` : ''}><a href="${link}">${label}${active ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}</a></th>`;
}

function row(r: FeedRow, knows: Overview['knows']): Html {
  const last = r.last;
  const lastFile = last?.files.at(-1);
  const runCells = last
    ? html`<td>${stateLabel(last.state)}${last.dryRun ? ' (dry run)' : ''}${runningNote(r)}</td>
<td><a class="when" href="/console/runs/${encodeURIComponent(last.runId)}">${whenOnTwoLines(last.startedAt)}</a></td>
<td class="num">${last.controlTotals.all.records}</td>
<td class="num">${last.counts.created + last.counts.updated}</td>
<td class="num">${last.counts.rejected}</td>
<td class="num">${last.counts.failed}</td>
<td>${lastFile ? baseName(lastFile.path) : html`<span class="muted">none</span>`}</td>`
    : r.running
      ? html`<td>${stateLabel('running')}${runningNote(r)}</td><td colspan="6"><span class="muted">its first run is under way</span></td>`
      : html`<td>${stateLabel(NO_RUN)}</td><td colspan="6"><span class="muted">no run within the retention</span></td>`;
  return html`<tr>
<td>${r.accountId}</td>
<th scope="row"><a href="/console/feeds/${encodeURIComponent(r.feed)}">${r.feed}</a> <span class="muted">${r.kind}</span></th>
${runCells}
${knows.runs ? html`<td class="num">${r.runs ?? 0}</td>` : ''}
${knows.freshness ? html`<td>${freshnessCell(r)}</td>` : ''}
${knows.alerts ? html`<td>${alertsCell(r)}</td>` : ''}
</tr>`;
}

/** Runs under way beside the last finished one: how many, since when, a link to the newest. */
function runningNote(r: FeedRow): Html | string {
  if (!r.running) return '';
  const { runs, since, runId } = r.running;
  return html`<br><a class="muted when" href="/console/runs/${encodeURIComponent(runId)}">${runs === 1 ? 'a run' : `${runs} runs`} under way since ${whenOnTwoLines(since)}</a>`;
}

/** A time that may break after its date, never inside its time (the column stays narrow). */
function whenOnTwoLines(iso: string): Html {
  const [date, time] = when(iso).split(/ (.*)/s);
  return html`${date ?? ''} <span class="nowrap">${time ?? ''}</span>`;
}

/**
 * The feed's open alerts, each in its words; "none" said, so an empty cell is never ambiguous, and
 * "unknown" when the source could not read them (its reason is listed below the table).
 */
function alertsCell(r: FeedRow): Html {
  const alerts = r.alerts;
  if (!alerts) return html`<span class="muted">unknown</span>`;
  if (alerts.length === 0) return html`<span class="muted">none</span>`;
  return html`${alerts.map((a, i) => html`${i > 0 ? ' ' : ''}<span class="alert">${a}</span>`)}`;
}

/**
 * Stale or fresh with its figures; the fleet's whole sentence (what to check) one keypress away
 * in a disclosure, so 3,000 rows stay one line each.
 */
function freshnessCell(r: FeedRow): Html {
  if (!r.freshness) return html`<span class="muted">not watched (no source.expectEvery)</span>`;
  const { stale, brief, message } = r.freshness;
  return html`<details><summary>${stale ? html`<strong>stale</strong>` : 'fresh'} <span class="muted">${brief}</span></summary><span class="muted">${message}</span></details>`;
}

export function overviewPage(overview: Overview, query: OverviewQuery): Html {
  const rows = selectRows(overview.rows, query);
  const pages = Math.max(1, Math.ceil(rows.length / OVERVIEW_PAGE_ROWS));
  const page = Math.min(query.page, pages);
  const first = (page - 1) * OVERVIEW_PAGE_ROWS;
  const shown = rows.slice(first, first + OVERVIEW_PAGE_ROWS);
  const { knows } = overview;
  const states = [...RUN_STATES, NO_RUN].map(
    (s) =>
      html`<option value="${s}"${query.state === s ? html` selected` : ''}>${s.replace(/_/g, ' ')}</option>`,
  );
  const keep = { q: query.q, state: query.state, sort: query.sort, dir: query.dir };
  const body = html`<form method="get" action="/console" role="search">
<label>Feed, kind or tenant <input type="search" name="q" value="${query.q}"></label>
<label>Last run <select name="state"><option value="">any state</option>${states}</select></label>
<input type="hidden" name="sort" value="${query.sort}"><input type="hidden" name="dir" value="${query.dir}">
<button type="submit">Filter</button>
</form>
${overview.notice ? html`<p><strong>${overview.notice}</strong></p>` : ''}
<table>
<caption>Tenants × feeds, ${rows.length} of ${overview.rows.length}${rows.length > shown.length ? `, rows ${first + 1}–${first + shown.length}` : ''}: the last finished run of each, and runs under way</caption>
<thead><tr>
${sortHeader('Tenant', 'tenant', query)}${sortHeader('Feed', 'feed', query)}${sortHeader('State', 'state', query)}${sortHeader('Started', 'when', query)}${sortHeader('Records', 'records', query, true)}<th scope="col" class="num">Written</th>${sortHeader('Rejected', 'rejected', query, true)}${sortHeader('Failed', 'failed', query, true)}<th scope="col">Last file</th>${knows.runs ? html`<th scope="col" class="num">Runs</th>` : ''}${knows.freshness ? html`<th scope="col">Freshness</th>` : ''}${knows.alerts ? html`<th scope="col">Open alerts</th>` : ''}
</tr></thead>
<tbody>${shown.map((r) => row(r, knows))}</tbody>
</table>
${rows.length === 0 ? html`<p>No run matches.</p>` : ''}
${pages > 1 ? pager('/console', keep, { page, pageSize: OVERVIEW_PAGE_ROWS }, rows.length) : ''}
${reconciles(overview, query)}
${damaged(overview)}`;
  return layout('Runs', body);
}

/** Reconciles the overview lists at most: those with differences first, the search narrows them. */
export const OVERVIEW_RECONCILES = 100;

const VERDICT_RANK: Record<ReconcileRow['last']['state'], number> = { differences: 0, stopped: 1, equal: 2 };

function reconciles(overview: Overview, query: OverviewQuery): Html | string {
  if (overview.reconciles.length === 0) return '';
  const needle = query.q.toLowerCase();
  const matching = overview.reconciles
    .filter(
      (r) => needle === '' || r.feed.toLowerCase().includes(needle) || String(r.accountId).includes(needle),
    )
    .sort(
      (a, b) =>
        VERDICT_RANK[a.last.state] - VERDICT_RANK[b.last.state] ||
        a.accountId - b.accountId ||
        a.feed.localeCompare(b.feed),
    );
  const rows = matching.slice(0, OVERVIEW_RECONCILES);
  const more = matching.length - rows.length;
  return html`<table>
<caption>Reconciles: the last of each tenant × feed, differences first (${matching.length}${more > 0 ? `, the first ${rows.length} shown: search to narrow` : ''})</caption>
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
