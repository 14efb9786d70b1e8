import type { Command } from 'commander';
import { logFormatOption, logLevelOption } from '../options.js';
import type { SyncFlags } from './sync-run.js';

export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description(
      'run feeds to completion in this process (no Redis) against the service set by PARTNER_*, or with --sandbox an embedded sandbox',
    )
    .argument('<feed...>', 'feed files (config/feeds/*.yaml)')
    .option('--dry-run', 'validate and map without writing; report what would be sent', false)
    .option('--sandbox', 'sync into an embedded sandbox instead of the service (PARTNER_* ignored)', false)
    .option('--report-dir <dir>', 'where each run writes its report folder', './reports')
    .option(
      '--report-format <format>',
      "csv (outcomes.csv/.ndjson only), excel (also outcomes.xlsx) or excel-csv (also outcomes.excel.csv for German Excel); over ERP_BRIDGE_REPORT_FORMAT and the feeds' report.format",
    )
    .addOption(logFormatOption())
    .addOption(logLevelOption())
    .option('--no-progress', 'no progress bar even on a TTY')
    .option(
      '--accept-new-identity',
      "go on although the feed's identity settings changed (derived IDs change: see docs/identity.md)",
      false,
    )
    .option(
      '--reimport',
      'database feeds: read every row from the start, whatever cursor position is stored (docs/databases.md)',
      false,
    )
    .action(async (feedFiles: string[], flags: SyncFlags) => {
      // Loaded on use: a sync's modules (readers, kinds, client) stay out of --help and the other commands.
      const { sync } = await import('./sync-run.js');
      process.exitCode = await sync(feedFiles, flags);
    });
}
