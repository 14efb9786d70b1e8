import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/** Builds the CLI without running it, so tests can drive it in-process. */
export function buildProgram(version: string): Command {
  const program = new Command('erp-bridge')
    .description("Sync partners' ERP exports into the cash-flow planning service through its partner API")
    .version(version)
    .showHelpAfterError()
    // A usage error must exit 2 (invalid configuration), not commander's 1, which scripts read as
    // "some records rejected": main.ts maps the thrown CommanderError (parserExit).
    .exitOverride();
  registerCommands(program);
  return program;
}

/**
 * The exit code of a parse that the parser ended itself, having printed what it had to (help, the
 * version: 0; a usage error: 2); undefined for any other error.
 */
export function parserExit(error: unknown): ExitCode | undefined {
  if (!(error instanceof CommanderError)) return undefined;
  return error.exitCode === 0 ? EXIT.OK : EXIT.INVALID_CONFIG;
}
