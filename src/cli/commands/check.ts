import { type Command, InvalidArgumentError } from 'commander';
import type { CheckFlags } from './check-run.js';

/** `--show N`: a whole number >= 0 (0: no records shown). */
function showCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number >= 0');
  return n;
}

/** `erp-bridge check <feed...>`: reads and maps a feed's exports as sync would, with no service. */
export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description(
      "read each feed's current exports, map and validate every record as sync would, and send nothing: per field what was read, empty or rejected (with file:line), the identities, date range and control totals, the first records as the service would receive them; no service, no PARTNER_* needed",
    )
    .argument('<feed...>', 'feed files (config/feeds/*.yaml)')
    .option('--show <n>', 'how many records that would be sent to print as JSON payloads', showCount, 3)
    .option('--json', 'print one JSON document (every feed checked, its exit code) instead of text', false)
    .action(async (feedFiles: string[], flags: CheckFlags) => {
      // Loaded on use, as the other commands' run modules.
      const { check } = await import('./check-run.js');
      process.exitCode = await check(feedFiles, flags);
    });
}
