import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { RecordOutcome } from '../sync/outcome.js';
import { repairAdvice } from '../sync/reconcile/repair-advice.js';

/** Records named one by one; the rest are counted (the repair report has them all). */
const SHOWN = 20;

/**
 * Each record `--repair` synced but could not change (skipped, rejected or failed), read from the
 * repair run's outcome lines: where it is, what the sync said, and what the person can do.
 */
export async function unchangedText(kind: string, outcomesNdjson: string): Promise<string> {
  let text = '';
  let shown = 0;
  let more = 0;
  const lines = createInterface({
    input: createReadStream(outcomesNdjson),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (!line) continue;
    const outcome = JSON.parse(line) as RecordOutcome;
    if (outcome.outcome === 'created' || outcome.outcome === 'updated') continue;
    if (shown === SHOWN) {
      more++;
      continue;
    }
    shown++;
    const id = outcome.externalId ? ` ${outcome.externalId}` : '';
    const said = [outcome.outcome, outcome.code, outcome.message].filter(Boolean).join(': ');
    text += `  not changed: ${outcome.file}:${outcome.line}${id}: ${said}\n    what to do: ${repairAdvice(kind, outcome)}\n`;
  }
  return more > 0 ? `${text}  … and ${more} more not changed (in the repair report)\n` : text;
}
