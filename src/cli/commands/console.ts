import type { Command } from 'commander';
import type { ConsoleCommandFlags } from './console-run.js';

/** `erp-bridge console --reports DIR`: the web console over the report folders of in-process runs. */
export function registerConsoleCommand(program: Command): void {
  program
    .command('console')
    .description(
      'serve the web console (runs, rejected records, feed history, reconciles) over the report folders sync and reconcile write',
    )
    .requiredOption('--reports <dir>', 'the report folder sync wrote to (its --report-dir)')
    .option('--port <port>', 'port to listen on (0 = any free port)', '9466')
    .option(
      '--host <host>',
      'address to listen on; beyond loopback only with ERP_BRIDGE_ADMIN_TOKEN or ERP_BRIDGE_ADMIN_USER/PASSWORD',
      '127.0.0.1',
    )
    .action(async (flags: ConsoleCommandFlags) => {
      // Loaded on use: fastify and the console's pages stay out of --help and the other commands.
      const { serveConsole } = await import('./console-run.js');
      process.exitCode = await serveConsole(flags);
    });
}
