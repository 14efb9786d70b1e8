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
