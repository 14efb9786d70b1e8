import type { RecordPage } from '../console-source.js';
import { type Html, html } from '../html.js';
import type { ConsoleReconcile, ConsoleReconcileLine } from '../summary-schemas.js';
import { baseName, layout, stateLabel, when } from './layout.js';
import { pager } from './pager.js';

const VERDICTS = ['missing', 'different', 'extra', 'duplicate', 'rejected', 'equal'] as const;

/** A field's value as text: the files hold JSON values (numbers, strings, null). */
const valueText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

function fieldsCell(line: ConsoleReconcileLine): Html | string {
  if (!line.fields || line.fields.length === 0) return '';
  return html`<ul>${line.fields.map(
    (f) =>
      html`<li><code>${f.field}</code>: export <q>${valueText(f.source)}</q>, service <q>${valueText(f.service)}</q></li>`,
  )}</ul>`;
}

export function reconcilePage(
  summary: ConsoleReconcile,
  page: RecordPage<ConsoleReconcileLine>,
  query: { q: string; page: number; pageSize: number },
): Html {
  const base = `/console/reconciles/${encodeURIComponent(summary.reconcileId)}`;
  const total = (t: { records: number; amount?: string | undefined }) =>
    html`<td class="num">${t.records}</td><td class="num">${t.amount ?? ''}</td>`;
  const body = html`<dl>
<dt>Verdict</dt><dd>${stateLabel(summary.state)}</dd>
<dt>Feed</dt><dd>${summary.feed} (${summary.kind}), tenant ${summary.accountId}${summary.scope ? html`; ${summary.scope}` : ''}</dd>
<dt>Started</dt><dd>${when(summary.startedAt)}</dd>
<dt>Files</dt><dd>${summary.files.map(baseName).join(', ')}</dd>
</dl>
<table>
<caption>Verdicts</caption>
<thead><tr>${VERDICTS.map((v) => html`<th scope="col" class="num">${v}</th>`)}</tr></thead>
<tbody><tr>${VERDICTS.map((v) => html`<td class="num">${summary.counts[v]}</td>`)}</tr></tbody>
</table>
<table>
<caption>Control totals</caption>
<thead><tr><th scope="col">Side</th><th scope="col" class="num">Records</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody><tr><th scope="row">exports</th>${total(summary.controlTotals.source)}</tr><tr><th scope="row">service</th>${total(summary.controlTotals.service)}</tr></tbody>
</table>
<h2>Missing, different and extra records</h2>
<form method="get" action="${base}" role="search">
<label>Search (id, verdict, field, file) <input type="search" name="q" value="${query.q}"></label>
<button type="submit">Search</button>
</form>
<p>${page.matched}${page.truncated ? '+' : ''} line${page.matched === 1 ? '' : 's'}.</p>
<table>
<caption>Lines, page ${query.page}</caption>
<thead><tr><th scope="col">Verdict</th><th scope="col">External id</th><th scope="col">File</th><th scope="col" class="num">Line</th><th scope="col">Fields (export / service)</th><th scope="col" class="num">Amount</th><th scope="col">Message</th></tr></thead>
<tbody>${page.items.map(
    (l) =>
      html`<tr><td>${l.verdict}</td><th scope="row">${l.externalId ?? ''}</th><td>${l.file ? baseName(l.file) : ''}</td><td class="num">${l.line}</td><td>${fieldsCell(l)}</td><td class="num">${l.amount ?? ''}</td><td>${l.message ?? ''}</td></tr>`,
  )}</tbody>
</table>
${pager(base, { q: query.q }, query, page.matched)}`;
  return layout(`Reconcile ${summary.reconcileId}`, body);
}
