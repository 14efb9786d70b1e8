import { dashboardQueues } from '../../fleet/dashboard.js';
import { warnUnlessPersistent } from '../../fleet/redis.js';
import { startWorker } from '../../fleet/worker.js';
import { RedisGate } from '../../gate/redis-gate.js';
import { hasCredentials } from '../../ops/admin-auth.js';
import { type AdminFlags, loadAdminConfig } from '../../ops/admin-config.js';
import { startAdminServer } from '../../ops/admin-server.js';
import { loadAlertConfig } from '../../ops/alerts/alert-config.js';
import { FeedAlerts } from '../../ops/alerts/feed-alerts.js';
import { RedisFeedHealthStore } from '../../ops/alerts/redis-health-store.js';
import { metricsHooks } from '../../ops/client-metrics.js';
import { redisReachable, tokenObtainable } from '../../ops/readiness.js';
import { syncMeter } from '../../ops/sync-meter.js';
import { systemClock } from '../../time/clock.js';
import { closeAll } from '../close-all.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { connectFleet, fleetConsoleSource, runFleetProcess, stopSignal, withFeedsDir } from '../fleet.js';
import { fleetMetrics } from '../fleet-metrics.js';
import { cliLogger, type LogFormat } from '../log-output.js';
import { connectService } from '../service.js';
import { CLOSE_SLACK_MS, shutDownWithin } from '../shutdown.js';

export interface WorkerFlags extends AdminFlags {
  /** The feed directory (default ERP_BRIDGE_FEEDS_DIR, else config/feeds). */
  feeds?: string;
  concurrency: number;
  logFormat: LogFormat;
  logLevel: string;
}

export async function work(flags: WorkerFlags): Promise<ExitCode> {
  const logger = cliLogger(flags.logFormat, flags.logLevel).child({ role: 'worker', pid: process.pid });
  return runFleetProcess(async (opened) => {
    const alertConfig = loadAlertConfig(process.env);
    const adminConfig = loadAdminConfig(process.env, 'worker', flags);
    const fleet = await connectFleet(withFeedsDir(process.env, flags.feeds), logger, 'worker');
    opened.push(() => fleet.close());
    // Once, at start: the worker is what loses work when a Redis without persistence restarts.
    await warnUnlessPersistent(fleet.redis, logger);
    const metrics = fleetMetrics(fleet, logger);
    const alerts = new FeedAlerts({
      config: alertConfig,
      store: new RedisFeedHealthStore(fleet.redis, fleet.keys),
      logger,
      metrics,
    });
    opened.push(() => alerts.close());
    const gate = new RedisGate({
      redis: () => fleet.redis.duplicate(),
      keyPrefix: fleet.config.prefix,
      leaseTtlMs: fleet.config.slotLeaseMs,
      onError: (error) => logger.warn({ err: error }, 'gate connection error'),
    });
    opened.push(() => gate.close());
    const service = await connectService(process.env, gate, systemClock, logger, {
      embeddedSandbox: false,
      hooks: metricsHooks(metrics),
    });
    opened.push(() => service.close());
    const admin =
      adminConfig &&
      (await startAdminServer({
        config: adminConfig,
        logger,
        metrics,
        readiness: { redis: redisReachable(fleet.redis), token: tokenObtainable(service.client) },
        dashboard: dashboardQueues(fleet.queues, !hasCredentials(adminConfig.credentials)),
        consoleSource: fleetConsoleSource(fleet),
      }));
    if (admin) opened.push(() => admin.close());
    const worker = startWorker({
      config: fleet.config,
      connection: fleet.redis,
      queues: fleet.queues,
      keys: fleet.keys,
      store: fleet.store,
      registry: fleet.registry,
      gate,
      client: service.client,
      clock: systemClock,
      logger,
      concurrency: flags.concurrency,
      alerts,
      meter: syncMeter(metrics),
      target: service.target,
    });
    logger.info(
      {
        concurrency: flags.concurrency,
        prefix: fleet.config.prefix,
        feeds: fleet.config.feedsDir,
      },
      'worker started',
    );
    await stopSignal();
    admin?.shuttingDown();
    logger.info(
      { graceMs: fleet.config.shutdownGraceMs },
      'shutting down: no new jobs, finishing in-flight ones',
    );
    // Bounded, Redis up or down: the grace period for in-flight jobs, then a few seconds to close.
    await shutDownWithin(
      fleet.config.shutdownGraceMs + CLOSE_SLACK_MS,
      logger,
      async () => {
        const { released } = await worker.close();
        if (released) logger.warn('grace period over: in-flight jobs released to other workers');
        await closeAll(opened);
      },
      () => {
        worker.disconnect();
        gate.disconnect();
        fleet.disconnect();
      },
    );
    logger.info('worker stopped');
    return EXIT.OK;
  });
}
