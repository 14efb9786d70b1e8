import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../config/errors.js';
import { type LoadedFeed, loadFeedFile } from '../../config/load-feed.js';
import { type AdminFlags, loadAdminConfig } from '../../ops/admin-config.js';
import { startAdminServer } from '../../ops/admin-server.js';
import { redisReachable } from '../../ops/readiness.js';
import { dashboardQueues } from '../../queue/dashboard.js';
import { syncSchedulers } from '../../queue/scheduler.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { connectFleet, runFleetProcess, stopSignal } from '../fleet.js';
import { fleetMetrics } from '../fleet-metrics.js';
import { cliLogger } from '../log-output.js';

export interface SchedulerFlags extends AdminFlags {
  feeds: string;
  rescan: number;
  once: boolean;
}

/** The feed files directly in `dir` (not its subfolders: config/feeds/demo is not scheduled). */
async function feedFilesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => resolve(join(dir, e.name)))
    .sort();
}

export async function schedule(flags: SchedulerFlags): Promise<ExitCode> {
  const logger = cliLogger('json', 'info').child({ role: 'scheduler', pid: process.pid });
  return runFleetProcess(async (opened) => {
    // A one-shot pass is over before anything could scrape or probe it.
    const adminConfig = flags.once ? undefined : loadAdminConfig(process.env, 'scheduler', flags);
    const fleet = await connectFleet(process.env, logger, 'scheduler');
    opened.push(() => fleet.close());
    const pass = async () => {
      const feeds: LoadedFeed[] = [];
      for (const file of await feedFilesIn(flags.feeds)) {
        try {
          feeds.push(await loadFeedFile(file));
        } catch (error) {
          // One broken feed file must not unschedule the others; it keeps its old scheduler.
          if (!(error instanceof ConfigError)) throw error;
          logger.error({ alert: true, file }, error.message);
          return;
        }
      }
      const result = await syncSchedulers(fleet.queues.ticks, feeds);
      logger.info(result, 'schedulers in sync with the feed files');
    };
    // The scheduler never calls the service, so it is ready when Redis answers.
    const admin =
      adminConfig &&
      (await startAdminServer({
        config: adminConfig,
        logger,
        metrics: fleetMetrics(fleet, logger),
        readiness: { redis: redisReachable(fleet.redis) },
        dashboard: dashboardQueues(fleet.queues),
      }));
    if (admin) opened.push(() => admin.close());
    await pass();
    if (flags.once) return EXIT.OK;
    const timer = setInterval(
      () => void pass().catch((e: unknown) => logger.error({ err: e }, 'rescan failed')),
      flags.rescan * 1000,
    );
    await stopSignal();
    admin?.shuttingDown();
    clearInterval(timer);
    return EXIT.OK;
  });
}
