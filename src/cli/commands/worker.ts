import type { Command } from 'commander';
import { adminOptions } from '../admin.js';
import { logLevelOption, positiveInt } from '../options.js';
import type { WorkerFlags } from './worker-run.js';

/** `erp-bridge worker`: one process of the fleet; start as many as needed, on as many machines. */
export function registerWorkerCommand(program: Command): void {
  const command = program
    .command('worker')
    .description('process import runs and chunks from Redis (needs REDIS_URL and PARTNER_*)')
    .option(
      '--feeds <dir>',
      'the feed directory jobs name their feeds in (default: ERP_BRIDGE_FEEDS_DIR or config/feeds)',
    )
    .option('--concurrency <n>', 'chunks processed at once by this process', positiveInt, 8)
    .option('--log-format <format>', 'json (default) or text', 'json')
    .addOption(logLevelOption());
  adminOptions(command, 'worker').action(async (flags: WorkerFlags) => {
    // Loaded on use: the fleet's modules (BullMQ, Redis, the admin server) stay out of other commands.
    const { work } = await import('./worker-run.js');
    process.exitCode = await work(flags);
  });
}
