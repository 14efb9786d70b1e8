import type { FeedFreshness } from '../../fleet/file-registry.js';
import { judgeFreshness } from '../../fleet/freshness.js';
import { countsText } from '../counts-text.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { withFleet } from '../fleet.js';
import { cliLogger } from '../log-output.js';

export interface RunsFlags {
  feed?: string;
  limit: number;
  json: boolean;
  /** Only the freshness verdicts of the feeds with source.expectEvery, no runs. */
  freshness: boolean;
}

export async function runs(flags: RunsFlags): Promise<ExitCode> {
  return withFleet(cliLogger('text', 'warn'), 'runs', async (fleet) => {
    // First the feeds with source.expectEvery, as dbt's source freshness: a feed whose exports
    // stopped coming has no run to show, so its absence is said here. `--json` lines are one run
    // each (scripts parse them so); `--json --freshness` gives the verdicts one feed a line instead.
    if (flags.freshness || !flags.json)
      for (const entry of await fleet.registry.freshness()) {
        if (flags.feed !== undefined && entry.feed !== flags.feed) continue;
        process.stdout.write(freshnessLine(entry, Date.now(), flags.json));
      }
    if (flags.freshness) return EXIT.OK;
    for (const { meta, summary } of await fleet.store.list(flags.limit, flags.feed)) {
      if (flags.json) {
        process.stdout.write(
          `${JSON.stringify({ ...meta, state: summary?.state ?? 'running', counts: summary?.counts, target: summary?.target })}\n`,
        );
        continue;
      }
      const counts = summary ? countsText(summary) : '';
      process.stdout.write(
        `${meta.runId}  ${meta.startedAt}  ${summary?.state ?? 'running'}  ${counts}  ${meta.file}${summary?.target ? `  -> ${summary.target}` : ''}${meta.retryOf ? `  (retry of ${meta.retryOf})` : ''}${meta.repairOf ? `  (repair of ${meta.repairOf})` : ''}\n`,
      );
    }
    return EXIT.OK;
  });
}

/** A feed's verdict: `STALE  <message>` / `fresh  <message>`, or its JSON line (times as ISO). */
function freshnessLine(entry: FeedFreshness, now: number, json: boolean): string {
  const verdict = judgeFreshness(entry, now);
  if (!json) return `${verdict.stale ? 'STALE' : 'fresh'}  ${verdict.message}\n`;
  return `${JSON.stringify({
    feed: verdict.feed,
    accountId: verdict.accountId,
    freshness: verdict.stale ? 'stale' : 'fresh',
    lastNewAt: entry.lastNewAt === undefined ? null : new Date(entry.lastNewAt).toISOString(),
    watchedSince: new Date(entry.since).toISOString(),
    expectEveryMs: verdict.expectEveryMs,
    message: verdict.message,
  })}\n`;
}
