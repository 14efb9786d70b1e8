import { type Command, CommanderError } from 'commander';

/**
 * Checks an argument list the container would pass to `erp-bridge` against the real CLI: the first
 * word must name one of its commands, and commander itself parses the rest (unknown options,
 * missing or excess arguments, invalid option values such as a bad port). The commands' actions
 * are swapped for no-ops first, so nothing starts. `program` is consumed: build one per check.
 */
export function cliArgsProblems(program: Command, argv: readonly string[]): string[] {
  const [name] = argv;
  const names = program.commands.flatMap((command) => [command.name(), ...command.aliases()]);
  if (name === undefined || !names.includes(name)) {
    return [
      `"${argv.join(' ')}": ${name ?? '(nothing)'} is not a command of erp-bridge (${names.join(', ')})`,
    ];
  }
  for (const command of [program, ...program.commands]) {
    command.exitOverride();
    command.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  }
  for (const command of program.commands) command.action(() => {});
  try {
    program.parse([...argv], { from: 'user' });
    return [];
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return [`"${argv.join(' ')}": ${error.message}`];
  }
}
