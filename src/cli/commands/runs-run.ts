import { judgeFreshness } from '../../fleet/freshness.js';
import { countsText } from '../counts-text.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { withFleet } from '../fleet.js';
import { cliLogger } from '../log-output.js';

export interface RunsFlags {
  feed?: string;
  limit: number;
  json: boolean;
}

export async function runs(flags: RunsFlags): Promise<ExitCode> {
  return withFleet(cliLogger('text', 'warn'), 'runs', async (fleet) => {
    // First the feeds with source.expectEvery, as dbt's source freshness: a feed whose exports
    // stopped coming has no run to show, so its absence is said here. (Text only: --json lines
    // stay one run each.)
    if (!flags.json)
      for (const entry of await fleet.registry.freshness()) {
        if (flags.feed !== undefined && entry.feed !== flags.feed) continue;
        const verdict = judgeFreshness(entry, Date.now());
        process.stdout.write(`${verdict.stale ? 'STALE' : 'fresh'}  ${verdict.message}\n`);
      }
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
