import { type Html, html } from '../html.js';
import type { ConsoleRun } from '../summary-schemas.js';
import { historyChart } from './history-chart.js';
import { layout, stateLabel, when } from './layout.js';

/** A feed's runs over time: the chart for the eye, the table (same numbers) for everyone. */
export function feedPage(feed: string, runs: readonly ConsoleRun[]): Html {
  if (runs.length === 0)
    return layout(`Feed ${feed}`, html`<p>No run of this feed in the report folders.</p>`);
  const chart = historyChart(
    runs.map((r) => ({
      label: r.startedAt,
      records: r.controlTotals.all.records,
      rejected: r.counts.rejected,
    })),
    `Records and rejected records per run of ${feed}, oldest left; the numbers are in the table "Runs, newest first"`,
  );
  const body = html`<div class="history">
<figure>${chart}<figcaption><span class="legend-records">━ records</span> · <span class="legend-rejected">╍ rejected</span> per run, oldest left (${runs.length} runs)</figcaption></figure>
<table>
<caption>Runs, newest first</caption>
<thead><tr><th scope="col">Started</th><th scope="col">Tenant</th><th scope="col">State</th><th scope="col" class="num">Records</th><th scope="col" class="num">Rejected</th><th scope="col" class="num">Failed</th></tr></thead>
<tbody>${[...runs].reverse().map(
    (
      r,
    ) => html`<tr><th scope="row"><a href="/console/runs/${encodeURIComponent(r.runId)}">${when(r.startedAt)}</a></th><td>${r.accountId}</td><td>${stateLabel(r.state)}</td>
<td class="num">${r.controlTotals.all.records}</td><td class="num">${r.counts.rejected}</td><td class="num">${r.counts.failed}</td></tr>`,
  )}</tbody>
</table>
</div>`;
  return layout(`Feed ${feed}`, body);
}
