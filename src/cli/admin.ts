import type { Command } from 'commander';
import type { Logger } from 'pino';
import { ADMIN_DEFAULT_PORTS, type AdminRole } from '../ops/admin-config.js';
import { fleetReadings } from '../ops/fleet-readings.js';
import { createMetrics, type Metrics } from '../ops/metrics.js';
import type { FleetWiring } from './fleet.js';

/** `--admin-host` and `--admin-port` of the fleet commands; validated with the environment (admin-config). */
export function adminOptions(command: Command, role: AdminRole): Command {
  return command
    .option('--admin-host <host>', 'admin HTTP address (default ERP_BRIDGE_ADMIN_HOST, else 127.0.0.1)')
    .option(
      '--admin-port <port>',
      `admin HTTP port, 0 = any free one, off = none (default ERP_BRIDGE_ADMIN_PORT, else ${ADMIN_DEFAULT_PORTS[role]})`,
    );
}

/** The process's metrics, with the fleet-wide gauges read from its Redis at scrape time. */
export function fleetMetrics(fleet: FleetWiring, logger: Logger): Metrics {
  return createMetrics({
    fleet: fleetReadings({ queues: fleet.queues, redis: fleet.redis, prefix: fleet.config.prefix }),
    onScrapeError: (error, reading) =>
      logger.warn({ err: error, reading }, 'metrics: could not read the fleet from Redis; gauge left empty'),
  });
}
