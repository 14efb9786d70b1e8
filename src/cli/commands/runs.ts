import type { Command } from 'commander';
import { positiveInt } from '../options.js';
import type { RunsFlags } from './runs-run.js';

/** `erp-bridge runs`: the latest fleet runs with their counts. */
export function registerRunsCommand(program: Command): void {
  program
    .command('runs')
    .description('list recent fleet runs with their outcome counts (needs REDIS_URL)')
    .option('--feed <name>', 'only runs of this feed')
    .option('--limit <n>', 'how many runs', positiveInt, 20)
    .option('--json', 'one JSON object per line', false)
    .option(
      '--freshness',
      'only the freshness verdicts of the feeds with source.expectEvery (with --json: one JSON object per feed), no runs',
      false,
    )
    .action(async (flags: RunsFlags) => {
      // Loaded on use: the fleet's modules (BullMQ, Redis, the admin server) stay out of other commands.
      const { runs } = await import('./runs-run.js');
      process.exitCode = await runs(flags);
    });
}
