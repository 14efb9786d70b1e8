import type { Command } from 'commander';
import type { EnqueueFlags } from './enqueue-run.js';

/** `erp-bridge enqueue`: the producer, on demand (the scheduler runs the same on each tick). */
export function registerEnqueueCommand(program: Command): void {
  program
    .command('enqueue')
    .description('enqueue an import run for each new or changed export file of the feeds (needs REDIS_URL)')
    .argument('<feed...>', 'feed files (config/feeds/*.yaml)')
    .option('--file <file>', "only this export file (it must match the feed's source.path)")
    .option(
      '--feeds <dir>',
      'the fleet feed directory the feed files are in (default: ERP_BRIDGE_FEEDS_DIR or config/feeds)',
    )
    .option('--reimport', 'import again even if this version of the file was imported before', false)
    .option('--dry-run', 'the runs validate and map only; nothing is written to the service', false)
    .option(
      '--accept-new-identity',
      "the runs go on although the feed's identity settings changed (see docs/identity.md)",
      false,
    )
    .action(async (feedFiles: string[], flags: EnqueueFlags) => {
      // Loaded on use: the fleet's modules (BullMQ, Redis, the admin server) stay out of other commands.
      const { enqueue } = await import('./enqueue-run.js');
      process.exitCode = await enqueue(feedFiles, flags);
    });
}
