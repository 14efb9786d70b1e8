/**
 * The console's one stylesheet, served by the console itself (/console/style.css): no CDN, no
 * external request, and the CSP allows styles from 'self' only (no inline style attribute).
 * Colours checked for contrast >= 4.5:1 on their backgrounds (text #1a1a1a on #fff: 17:1; links
 * #0b57d0 on #fff: 6.6:1; states' text on their tints: >= 7:1); focus is a thick visible outline.
 * Checked in Chromium by test/browser/console.test.ts, whose screenshots showed what the rules
 * below the table ones are for: a time in a cell (a link) and a number kept on one line (a time
 * took four), the long words of a cell's side note (the freshness sentence's timestamps) free to
 * break so that the overview still fits a 1280px window, a list in a cell aligned with its row,
 * and code named with a font list, not `monospace` alone, which browsers shrink to 13px (error
 * codes were smaller than the text around them).
 */
export const CONSOLE_CSS = `
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #1a1a1a; background: #fff; }
body { margin: 0 auto; max-width: 80rem; padding: 0 1rem 2rem; line-height: 1.45; }
a { color: #0b57d0; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 3px solid #1a1a1a; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 0.5rem; background: #fff; padding: 0.25rem 0.5rem; }
header { border-bottom: 1px solid #767676; margin-bottom: 1rem; }
header a { font-weight: 600; text-decoration: none; color: #1a1a1a; }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1.5rem; }
th, td { text-align: left; padding: 0.3rem 0.4rem; border-bottom: 1px solid #d0d0d0; vertical-align: top; }
thead th { background: #f2f2f2; }
td > a, td.num, .nowrap { white-space: nowrap; }
td > a.when { white-space: normal; }
td .muted { overflow-wrap: anywhere; }
td ul { margin: 0; padding-left: 1.25rem; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
.state { font-weight: 600; padding: 0 0.3rem; border-radius: 3px; }
.state-failed, .state-interrupted, .state-stopped, .state-differences, .state-damaged { background: #fde7e7; color: #8a1212; }
.state-completed_with_errors { background: #fff4d6; color: #5c3d00; }
.state-completed, .state-equal { background: #e3f4e6; color: #10501e; }
.state-running { background: #e6eefc; color: #0a3a8c; }
.state-no_run { background: #ececec; color: #1a1a1a; }
summary { cursor: pointer; }
.alert { font-weight: 600; padding: 0 0.3rem; border-radius: 3px; background: #fde7e7; color: #8a1212; }
form { margin: 0.5rem 0; display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: end; }
label { display: flex; flex-direction: column; font-size: 0.9rem; }
input, select, button { font: inherit; padding: 0.2rem 0.4rem; border: 1px solid #767676; border-radius: 3px; }
button { background: #0b57d0; color: #fff; border-color: #0b57d0; }
.history { display: flex; gap: 1.5rem; flex-wrap: wrap; align-items: flex-start; }
.chart { border: 1px solid #d0d0d0; }
.legend-records { color: #0b57d0; } .legend-rejected { color: #b3261e; }
nav.pages { display: flex; gap: 1rem; }
.muted { color: #555; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; }
`;
