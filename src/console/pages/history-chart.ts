import { type Html, html, raw } from '../html.js';

export interface ChartPoint {
  label: string;
  records: number;
  rejected: number;
}

const WIDTH = 480;
const HEIGHT = 200;
const PAD = 32;

/**
 * Records and rejected per run as two lines, drawn here as SVG markup: a few dozen points need no
 * charting package, no script (the CSP allows none) and no request. Presentation attributes, not
 * style attributes (which the CSP refuses). For screen readers one image named by `label`, which
 * should point them to the table beside it: the table holds the same numbers.
 */
export function historyChart(points: readonly ChartPoint[], label: string): Html {
  const max = Math.max(1, ...points.map((p) => Math.max(p.records, p.rejected)));
  const x = (i: number) =>
    PAD + (points.length <= 1 ? (WIDTH - 2 * PAD) / 2 : (i * (WIDTH - 2 * PAD)) / (points.length - 1));
  const y = (v: number) => HEIGHT - PAD - (v * (HEIGHT - 2 * PAD)) / max;
  const line = (pick: (p: ChartPoint) => number) =>
    points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)} ${y(pick(p)).toFixed(1)}`).join(' ');
  const dots = (pick: (p: ChartPoint) => number, colour: string) =>
    points.map((p, i) =>
      raw(`<circle cx="${x(i).toFixed(1)}" cy="${y(pick(p)).toFixed(1)}" r="3" fill="${colour}"/>`),
    );
  return html`<svg class="chart" role="img" aria-label="${label}" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg">
<line x1="${PAD}" y1="${HEIGHT - PAD}" x2="${WIDTH - PAD}" y2="${HEIGHT - PAD}" stroke="#767676"/>
<line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${HEIGHT - PAD}" stroke="#767676"/>
<text x="${PAD - 4}" y="${PAD + 4}" text-anchor="end" font-size="11" fill="#1a1a1a">${max}</text>
<text x="${PAD - 4}" y="${HEIGHT - PAD + 4}" text-anchor="end" font-size="11" fill="#1a1a1a">0</text>
<path d="${line((p) => p.records)}" fill="none" stroke="#0b57d0" stroke-width="2"/>
<path d="${line((p) => p.rejected)}" fill="none" stroke="#b3261e" stroke-width="2" stroke-dasharray="5 3"/>
${dots((p) => p.records, '#0b57d0')}${dots((p) => p.rejected, '#b3261e')}
</svg>`;
}
