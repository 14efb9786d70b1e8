import type { Command } from 'commander';
import { systemClock } from '../../client/index.js';
import { RedisGate } from '../../gate/redis-gate.js';
import { loadAlertConfig } from '../../ops/alerts/alert-config.js';
import { FeedAlerts } from '../../ops/alerts/feed-alerts.js';
import { RedisFeedHealthStore } from '../../ops/alerts/redis-health-store.js';
import { startWorker } from '../../queue/worker.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { connectFleet, fleetFailure } from '../fleet.js';
import { cliLogger, type LogFormat } from '../log-output.js';
import { positiveInt } from '../options.js';
import { connectService } from '../service.js';

interface WorkerFlags {
  concurrency: number;
  logFormat: LogFormat;
  logLevel: string;
}

/** `erp-bridge worker`: one process of the fleet; start as many as needed, on as many machines. */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('process import runs and chunks from Redis (needs REDIS_URL and PARTNER_*)')
    .option('--concurrency <n>', 'chunks processed at once by this process', positiveInt, 8)
    .option('--log-format <format>', 'json (default) or text', 'json')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'info')
    .action(async (flags: WorkerFlags) => {
      process.exitCode = await work(flags);
    });
}

async function work(flags: WorkerFlags): Promise<ExitCode> {
  const logger = cliLogger(flags.logFormat, flags.logLevel).child({ role: 'worker', pid: process.pid });
  try {
    const alertConfig = loadAlertConfig(process.env);
    const fleet = await connectFleet(process.env, logger, 'worker');
    const alerts = new FeedAlerts({
      config: alertConfig,
      store: new RedisFeedHealthStore(fleet.redis, fleet.keys),
      logger,
    });
    const gate = new RedisGate({
      redis: () => fleet.redis.duplicate(),
      keyPrefix: fleet.config.prefix,
      leaseTtlMs: fleet.config.slotLeaseMs,
      onError: (error) => logger.warn({ err: error }, 'gate connection error'),
    });
    const service = await connectService(process.env, gate, systemClock, logger, { embeddedSandbox: false });
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
    });
    logger.info({ concurrency: flags.concurrency, prefix: fleet.config.prefix }, 'worker started');
    await new Promise<void>((resolve) => {
      process.once('SIGTERM', () => resolve());
      process.once('SIGINT', () => resolve());
    });
    logger.info(
      { graceMs: fleet.config.shutdownGraceMs },
      'shutting down: no new jobs, finishing in-flight ones',
    );
    const { released } = await worker.close();
    if (released) logger.warn('grace period over: in-flight jobs released to other workers');
    await alerts.close();
    await gate.close();
    await service.close();
    await fleet.close();
    logger.info('worker stopped');
    return EXIT.OK;
  } catch (error) {
    const code = fleetFailure(error);
    if (code === undefined) throw error;
    return code;
  }
}
