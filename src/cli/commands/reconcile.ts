import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { logFormatOption, logLevelOption } from '../options.js';
import type { ReconcileFleetFlags } from './reconcile-fleet-run.js';
import type { ReconcileFlags } from './reconcile-run.js';

/** `erp-bridge reconcile <feed.yaml>`: does the service hold what the feed's exports hold? */
export function registerReconcileCommand(program: Command): void {
  program
    .command('reconcile')
    .description(
      "compare a feed's current exports with what the service (PARTNER_*) holds of the feed's scope, record by record; exit 0 only when nothing is missing or different",
    )
    .argument('<feed...>', 'feed files (config/feeds/*.yaml)')
    .option(
      '--repair',
      'sync what is missing or different through the normal sync path (never deletes), then compare again',
      false,
    )
    .option(
      '--report-dir <dir>',
      'where each reconcile (and repair run) writes its report folder',
      './reports',
    )
    .option(
      '--fleet',
      'run each comparison as a job of the fleet (REDIS_URL; a worker reads the service) and wait for it',
      false,
    )
    .option(
      '--feeds <dir>',
      '--fleet: the fleet feed directory the feed files are in (default: ERP_BRIDGE_FEEDS_DIR or config/feeds)',
    )
    .option('--no-wait', '--fleet: print the reconcile ids and return once enqueued')
    .addOption(logFormatOption())
    .addOption(logLevelOption())
    .action(async (feedFiles: string[], flags: ReconcileFlags & ReconcileFleetFlags & { fleet: boolean }) => {
      if (flags.fleet) {
        // Loaded on use: the fleet's modules (BullMQ, Redis) stay out of the in-process reconcile.
        const { reconcileFleet } = await import('./reconcile-fleet-run.js');
        process.exitCode = await reconcileFleet(feedFiles, flags);
        return;
      }
      if (!flags.wait || flags.feeds !== undefined) {
        process.stderr.write('erp-bridge: --no-wait and --feeds go with --fleet\n');
        process.exitCode = EXIT.INVALID_CONFIG;
        return;
      }
      const { reconcile } = await import('./reconcile-run.js');
      process.exitCode = await reconcile(feedFiles, flags);
    });
}
