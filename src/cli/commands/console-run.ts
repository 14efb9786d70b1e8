import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { startConsoleServer } from '../../console/console-server.js';
import { ReportsConsoleSource } from '../../console/reports-console-source.js';
import { consoleGuard } from '../../ops/admin-auth.js';
import { hostAllowed } from '../../ops/admin-host.js';
import { readOpenAlerts } from '../../ops/alerts/file-health-store.js';
import { loadConsoleConfig } from '../console-config.js';
import { EXIT, type ExitCode } from '../exit-codes.js';

export interface ConsoleCommandFlags {
  reports: string;
  port: string;
  host: string;
}

/**
 * Serves the console until SIGINT/SIGTERM; its one stdout line ({"url": ...}) tells scripts (and
 * --port 0's users) where. Settings problems are exit 2 before anything listens.
 */
export async function serveConsole(flags: ConsoleCommandFlags): Promise<ExitCode> {
  let server: Awaited<ReturnType<typeof startConsoleServer>>;
  try {
    const config = loadConsoleConfig(process.env, flags);
    const folder = await stat(flags.reports).catch(() => undefined);
    if (!folder?.isDirectory())
      throw new ConfigError(`--reports ${flags.reports}: no such folder (the --report-dir sync wrote to)`);
    const guard = consoleGuard(config.credentials);
    const serverConfig = {
      host: config.host,
      port: config.port,
      hostAllowed: (header: string | undefined) => hostAllowed(header, config),
      ...(guard ? { guard } : {}),
    };
    // The alerts `erp-bridge sync` keeps beside its report folders (src/ops/alerts/file-health-store.ts).
    const alerts = () => readOpenAlerts(join(flags.reports, '.feed-health.json'));
    server = await startConsoleServer(
      new ReportsConsoleSource(flags.reports, { alerts }),
      serverConfig,
    ).catch((error: unknown) => {
      throw new ConfigError(
        `the console cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`,
      );
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`erp-bridge: ${error.message}\n`);
    return EXIT.INVALID_CONFIG;
  }
  process.stdout.write(`${JSON.stringify({ url: `${server.url}/console` })}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return EXIT.OK;
}
