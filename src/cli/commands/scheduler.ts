import { type Command, InvalidArgumentError } from 'commander';
import { adminOptions } from '../admin.js';
import type { SchedulerFlags } from './scheduler-run.js';

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected seconds > 0');
  return n;
}

/** `erp-bridge scheduler`: keeps one Job Scheduler per scheduled feed file in Redis and polls watched feeds. */
export function registerSchedulerCommand(program: Command): void {
  const command = program
    .command('scheduler')
    .description(
      'keep a cron Job Scheduler per feed file with a schedule, and poll the locations of feeds with a watch (needs REDIS_URL)',
    )
    .option(
      '--feeds <dir>',
      'folder of feed files (its subfolders are not read; default: ERP_BRIDGE_FEEDS_DIR or config/feeds)',
    )
    .option('--rescan <seconds>', 'how often to re-read the feed folder', seconds, 60)
    .option('--once', 'sync the schedulers once and exit (no admin server)', false);
  adminOptions(command, 'scheduler').action(async (flags: SchedulerFlags) => {
    // Loaded on use: the fleet's modules (BullMQ, Redis, the admin server) stay out of other commands.
    const { schedule } = await import('./scheduler-run.js');
    process.exitCode = await schedule(flags);
  });
}
