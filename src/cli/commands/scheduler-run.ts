import { dashboardQueues } from '../../fleet/dashboard.js';
import { checkFreshness } from '../../fleet/freshness.js';
import { schedulerPass } from '../../fleet/scheduler.js';
import { FeedWatch } from '../../fleet/watch.js';
import { hasCredentials } from '../../ops/admin-auth.js';
import { type AdminFlags, loadAdminConfig } from '../../ops/admin-config.js';
import { startAdminServer } from '../../ops/admin-server.js';
import { loadAlertConfig } from '../../ops/alerts/alert-config.js';
import { FeedAlerts } from '../../ops/alerts/feed-alerts.js';
import { RedisFeedHealthStore } from '../../ops/alerts/redis-health-store.js';
import { redisReachable } from '../../ops/readiness.js';
import { closeAll } from '../close-all.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { connectFleet, fleetConsoleSource, runFleetProcess, stopSignal, withFeedsDir } from '../fleet.js';
import { fleetMetrics } from '../fleet-metrics.js';
import { cliLogger } from '../log-output.js';
import { CLOSE_SLACK_MS, shutDownWithin } from '../shutdown.js';

export interface SchedulerFlags extends AdminFlags {
  /** Default ERP_BRIDGE_FEEDS_DIR, else config/feeds: the directory the workers read feeds from. */
  feeds?: string;
  rescan: number;
  once: boolean;
}

export async function schedule(flags: SchedulerFlags): Promise<ExitCode> {
  const logger = cliLogger('json', 'info').child({ role: 'scheduler', pid: process.pid });
  return runFleetProcess(async (opened) => {
    // A one-shot pass is over before anything could scrape or probe it.
    const adminConfig = flags.once ? undefined : loadAdminConfig(process.env, 'scheduler', flags);
    const alertConfig = loadAlertConfig(process.env);
    const fleet = await connectFleet(withFeedsDir(process.env, flags.feeds), logger, 'scheduler');
    opened.push(() => fleet.close());
    // Freshness alerts (source.expectEvery) take the workers' paths: the same health in Redis,
    // log lines with alert: true, the webhook.
    const alerts = new FeedAlerts({
      config: alertConfig,
      store: new RedisFeedHealthStore(fleet.redis, fleet.keys),
      logger,
    });
    opened.push(() => alerts.close());
    // Feeds with `watch`: their locations are polled from this process (not in a one-shot pass).
    const watch = flags.once
      ? undefined
      : new FeedWatch(
          {
            feedsDir: fleet.config.feedsDir,
            registry: fleet.registry,
            store: fleet.store,
            imports: fleet.queues.imports,
            logger: logger.child({ role: 'watch' }),
            now: () => Date.now(),
          },
          logger,
        );
    if (watch) opened.push(() => watch.close());
    const pass = async () => {
      const { feeds, ...result } = await schedulerPass(fleet.queues.ticks, fleet.config.feedsDir, logger);
      watch?.update(feeds, result.broken);
      await checkFreshness(feeds, fleet.registry, alerts, Date.now(), result.broken.length > 0);
      logger.info(
        { ...result, watching: feeds.filter((f) => f.feed.watch).map((f) => f.file) },
        'schedulers in sync with the feed files',
      );
      return result;
    };
    // The scheduler never calls the service, so it is ready when Redis answers.
    const admin =
      adminConfig &&
      (await startAdminServer({
        config: adminConfig,
        logger,
        metrics: fleetMetrics(fleet, logger),
        readiness: { redis: redisReachable(fleet.redis) },
        dashboard: dashboardQueues(fleet.queues, !hasCredentials(adminConfig.credentials)),
        consoleSource: fleetConsoleSource(fleet),
      }));
    if (admin) opened.push(() => admin.close());
    // Listening from here on: a SIGTERM during the first pass (the admin server already answers,
    // so a supervisor may send one) is a graceful stop after it, not Node's default kill.
    if (flags.once) {
      const first = await pass();
      // A one-shot pass (cron, CI) says when a feed file is broken; a long-running one alerts.
      return first.broken.length > 0 ? EXIT.INVALID_CONFIG : EXIT.OK;
    }
    const stopped = stopSignal();
    let stopping = false;
    let timer: NodeJS.Timeout | undefined;
    const first = pass().then(() => {
      if (stopping) return;
      timer = setInterval(
        () => void pass().catch((e: unknown) => logger.error({ err: e }, 'rescan failed')),
        flags.rescan * 1000,
      );
    });
    // A first pass that fails (an unreadable feed folder) ends the command as before; one still
    // waiting on an unreachable Redis must not hold back a SIGTERM.
    await Promise.race([stopped, first]);
    first.catch(() => undefined);
    await stopped;
    stopping = true;
    admin?.shuttingDown();
    clearInterval(timer);
    logger.info({ graceMs: fleet.config.shutdownGraceMs }, 'shutting down');
    await shutDownWithin(
      fleet.config.shutdownGraceMs + CLOSE_SLACK_MS,
      logger,
      () => closeAll(opened),
      () => fleet.disconnect(),
    );
    logger.info('scheduler stopped');
    return EXIT.OK;
  });
}
