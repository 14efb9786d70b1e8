import type { ReconcileLine } from '../sync/reconcile/reconcile.js';
import type { ReconcileSummary } from '../sync/reconcile/summary.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/** The exit code of one reconcile: its stop's, else 4 when anything is missing or different. */
export function reconcileExitCode(summary: ReconcileSummary): ExitCode {
  if (summary.stopReason) return summary.stopReason.exitCode;
  return summary.state === 'equal' ? EXIT.OK : EXIT.DIFFERENCES;
}

const SHOWN = 10;

/**
 * The one-screen summary of a reconcile: verdict counts, both control totals, the first
 * differences, and `where` its report is (in process: the folder; fleet: `erp-bridge report <id>`).
 */
export function screen(s: ReconcileSummary, where: string): string {
  const c = s.counts;
  const total = (t: { records: number; amount?: string }) =>
    `${t.records} records${t.amount === undefined ? '' : `, sum ${t.amount}`}`;
  const lines = [
    `${s.feed}: ${s.state}${s.scope ? ` (${s.scope}, ${s.target ?? ''})` : ''}${s.stopReason ? `: ${s.stopReason.message}` : ''}`,
    `  ${c.equal} equal, ${c.missing} missing, ${c.different} different, ${c.extra} extra in the service; ${c.duplicate} duplicate and ${c.rejected} invalid rows in the exports`,
    `  exports: ${total(s.controlTotals.source)}; service: ${total(s.controlTotals.service)}${s.heldWithoutExternalId > 0 ? ` (${s.heldWithoutExternalId} without externalId)` : ''}`,
    ...s.firstDifferences.slice(0, SHOWN).map(difference),
    ...(c.missing + c.different > SHOWN
      ? [`  ... ${c.missing + c.different - SHOWN} more in the report`]
      : []),
    `  ${where}`,
  ];
  return `${lines.join('\n')}\n`;
}

function difference(line: ReconcileLine): string {
  const at = `${line.file}:${line.line} ${line.externalId ?? ''}`;
  if (line.verdict === 'missing') return `  missing: ${at}`;
  const fields = (line.fields ?? [])
    .map((f) => `${f.field} ${JSON.stringify(f.source)} (service ${JSON.stringify(f.service)})`)
    .join(', ');
  return `  different: ${at}: ${fields || line.message || ''}`;
}
