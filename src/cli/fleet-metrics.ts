import type { Logger } from 'pino';
import { fleetReadings } from '../ops/fleet-readings.js';
import { createMetrics, type Metrics } from '../ops/metrics.js';
import type { FleetWiring } from './fleet.js';

/** The process's metrics, with the fleet-wide gauges read from its Redis at scrape time. */
export function fleetMetrics(fleet: FleetWiring, logger: Logger): Metrics {
  return createMetrics({
    fleet: fleetReadings({ queues: fleet.queues, redis: fleet.redis, prefix: fleet.config.prefix }),
    onScrapeError: (error, reading) =>
      logger.warn({ err: error, reading }, 'metrics: could not read the fleet from Redis; gauge left empty'),
  });
}
