import type { DamagedFolder, RecordPage } from '../console-source.js';
import { type Html, html } from '../html.js';
import type { ConsoleOutcome, ConsoleRun } from '../summary-schemas.js';
import { baseName, href, layout, stateLabel, targetText, when } from './layout.js';
import { pager } from './pager.js';

const OUTCOMES = ['created', 'updated', 'skipped', 'rejected', 'failed'] as const;

export interface RunPageQuery {
  q: string;
  page: number;
  pageSize: number;
}

export function damagedPage(what: string, folder: DamagedFolder): Html {
  return layout(
    `${what} ${folder.id}`,
    html`<p>${stateLabel('damaged')} This report folder cannot be read: ${folder.problem}.</p>`,
  );
}

function files(run: ConsoleRun): Html {
  if (run.files.length === 0) return html`<p>No file was read${run.noFile ? html`: ${run.noFile}` : ''}.</p>`;
  return html`<table>
<caption>Files</caption>
<thead><tr><th scope="col">File</th><th scope="col">Folder</th><th scope="col" class="num">Records</th><th scope="col">Statements</th></tr></thead>
<tbody>${run.files.map(
    (
      f,
    ) => html`<tr><th scope="row">${baseName(f.path)}${f.sheet ? html` <span class="muted">sheet ${f.sheet}</span>` : ''}</th>
<td class="muted">${f.path.slice(0, f.path.length - baseName(f.path).length)}</td><td class="num">${f.records}</td>
<td>${f.statements ? `${f.statements.count} (${f.statements.unbalanced} not adding up)` : ''}</td></tr>`,
  )}</tbody>
</table>`;
}

function totals(run: ConsoleRun): Html {
  const row = (name: string, t: { records: number; amount: string }) =>
    html`<tr><th scope="row">${name}</th><td class="num">${t.records}</td><td class="num">${t.amount}</td></tr>`;
  return html`<table>
<caption>Counts and control totals</caption>
<thead><tr><th scope="col">Outcome</th><th scope="col" class="num">Records</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${OUTCOMES.map((o) => row(o, run.controlTotals[o]))}${row('all', run.controlTotals.all)}</tbody>
</table>`;
}

function warnings(run: ConsoleRun): Html | string {
  const list = run.files.flatMap((f) => (f.statements?.warnings ?? []).map((w) => ({ file: f.path, ...w })));
  if (list.length === 0) return '';
  return html`<table>
<caption>Statement warnings</caption>
<thead><tr><th scope="col">File</th><th scope="col" class="num">Line</th><th scope="col">Code</th><th scope="col">Message</th></tr></thead>
<tbody>${list.map(
    (w) =>
      html`<tr><td>${baseName(w.file)}</td><td class="num">${w.line}</td><th scope="row">${w.code}</th><td>${w.message}</td></tr>`,
  )}</tbody>
</table>`;
}

function records(run: ConsoleRun, page: RecordPage<ConsoleOutcome>, query: RunPageQuery): Html {
  const base = `/console/runs/${encodeURIComponent(run.runId)}`;
  const csv = href(`${base}/records.csv`, { q: query.q });
  return html`<h2 id="records">Rejected and failed records</h2>
<form method="get" action="${base}" role="search">
<label>Search (id, code, message, file, line) <input type="search" name="q" value="${query.q}"></label>
<button type="submit">Search</button>
</form>
<p>${page.matched}${page.truncated ? '+' : ''} record${page.matched === 1 ? '' : 's'}${query.q ? html` matching <q>${query.q}</q>` : ''}. <a href="${csv}" download>Download them as CSV</a>${page.unreadable > 0 ? html` <span class="muted">(${page.unreadable} unreadable lines skipped)</span>` : ''}${page.truncated ? html` <span class="muted">(the file is longer than the console reads: counts are a lower bound)</span>` : ''}</p>
<table>
<caption>Records, page ${query.page}</caption>
<thead><tr><th scope="col">File</th><th scope="col" class="num">Line</th><th scope="col">External id</th><th scope="col">Outcome</th><th scope="col">Code</th><th scope="col">Message</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${page.items.map(
    (o) =>
      html`<tr><td>${baseName(o.file)}</td><td class="num">${o.key ?? o.line}</td><th scope="row">${o.externalId ?? ''}</th><td>${o.outcome}</td><td><code>${o.code ?? ''}</code></td><td>${o.message ?? ''}</td><td class="num">${o.amount ?? ''}</td></tr>`,
  )}</tbody>
</table>
${pager(base, { q: query.q }, query, page.matched)}`;
}

export function runPage(run: ConsoleRun, page: RecordPage<ConsoleOutcome>, query: RunPageQuery): Html {
  const target = targetText(run.target);
  const body = html`<dl>
<dt>State</dt><dd>${stateLabel(run.state)}${run.dryRun ? ' (dry run)' : ''}</dd>
<dt>Feed</dt><dd><a href="/console/feeds/${encodeURIComponent(run.feed)}">${run.feed}</a> (${run.kind}), tenant ${run.accountId}</dd>
<dt>Started</dt><dd>${when(run.startedAt)}${run.finishedAt ? html`, finished ${when(run.finishedAt)}` : ''}</dd>
${target ? html`<dt>Target</dt><dd>${target}</dd>` : ''}
${run.stopReason ? html`<dt>Stopped</dt><dd><code>${run.stopReason.code}</code> ${run.stopReason.message}</dd>` : ''}
</dl>
${files(run)}
${totals(run)}
${warnings(run)}
${records(run, page, query)}`;
  return layout(`Run ${run.runId}`, body);
}
