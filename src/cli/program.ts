import { Command } from 'commander';
import { registerCommands } from './commands/index.js';

/** Builds the CLI without running it, so tests can drive it in-process. */
export function buildProgram(version: string): Command {
  const program = new Command('erp-bridge')
    .description("Sync partners' ERP exports into the cash-flow planning service through its partner API")
    .version(version)
    .showHelpAfterError()
    // A usage error must exit 2 (invalid configuration), not commander's 1, which scripts read as
    // "some records rejected": main.ts maps the thrown CommanderError.
    .exitOverride();
  registerCommands(program);
  return program;
}
