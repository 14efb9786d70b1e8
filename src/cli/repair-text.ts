import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { placeOf, type RecordOutcome } from '../sync/outcome.js';
import { repairAdvice } from '../sync/reconcile/repair-advice.js';

/** Records named one by one; the rest are counted (the repair report has them all). */
const SHOWN = 20;

/**
 * Each record `--repair` synced but could not change (skipped, rejected or failed), from the
 * repair run's outcomes in line order (the in-process run's outcomes.ndjson, or a fleet run's
 * outcomes in Redis): where it is, what the sync said, and what the person can do.
 */
export async function unchangedText(kind: string, outcomes: AsyncIterable<RecordOutcome>): Promise<string> {
  let text = '';
  let shown = 0;
  let more = 0;
  for await (const outcome of outcomes) {
    if (outcome.outcome === 'created' || outcome.outcome === 'updated') continue;
    if (shown === SHOWN) {
      more++;
      continue;
    }
    shown++;
    const id = outcome.externalId ? ` ${outcome.externalId}` : '';
    const said = [outcome.outcome, outcome.code, outcome.message].filter(Boolean).join(': ');
    text += `  not changed: ${placeOf(outcome)}${id}: ${said}\n    what to do: ${repairAdvice(kind, outcome)}\n`;
  }
  return more > 0 ? `${text}  … and ${more} more not changed (in the repair report)\n` : text;
}

/** The outcomes of an in-process run's outcomes.ndjson, in its (report) order. */
export async function* ndjsonOutcomes(path: string): AsyncGenerator<RecordOutcome> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) if (line) yield JSON.parse(line) as RecordOutcome;
}
