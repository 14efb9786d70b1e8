import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ConfigError } from '../config/errors.js';
import { type LoadedFeed, loadFeedFiles } from '../config/load-feed.js';
import { FleetConsoleSource } from '../fleet/console-source.js';
import { FileRegistry } from '../fleet/file-registry.js';
import { type FleetConfig, loadFleetConfig } from '../fleet/fleet-config.js';
import { type FleetKeys, fleetKeys } from '../fleet/keys.js';
import { type FleetQueues, openQueues } from '../fleet/queues.js';
import { RedisReconcileStore } from '../fleet/reconcile-store.js';
import { connectRedis, probeRedis, redactRedisUrl, warnUnlessNoEviction } from '../fleet/redis.js';
import { RedisRunStore } from '../fleet/run-store.js';
import { RedisFeedHealthStore } from '../ops/alerts/redis-health-store.js';
import { within } from '../time/deadline.js';
import { closeAll } from './close-all.js';
import { EXIT, type ExitCode } from './exit-codes.js';

export interface FleetWiring {
  config: FleetConfig;
  redis: Redis;
  keys: FleetKeys;
  queues: FleetQueues;
  store: RedisRunStore;
  /** Fleet reconciles' summaries and lines (`reconcile --fleet`, `report <reconcileId>`). */
  reconciles: RedisReconcileStore;
  registry: FileRegistry;
  close(): Promise<void>;
  /** Drops the connections at once, without QUIT (a shutdown past its deadline, Redis down). */
  disconnect(): void;
}

/** Connects to the fleet's Redis; fails fast (instead of waiting forever) when it is unreachable. */
/** The environment with `--feeds` (when given) as ERP_BRIDGE_FEEDS_DIR: the flag wins, one place resolves it. */
export const withFeedsDir = (env: NodeJS.ProcessEnv, feeds: string | undefined): NodeJS.ProcessEnv =>
  feeds ? { ...env, ERP_BRIDGE_FEEDS_DIR: feeds } : env;

export async function connectFleet(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  role: string,
): Promise<FleetWiring> {
  const config = loadFleetConfig(env);
  // First, whatever follows: the operator sees which Redis (and so which fleet) the command uses.
  // Logs of --log-format json go to stdout, so this line never breaks a JSON collector.
  process.stderr.write(`erp-bridge: Redis ${redactRedisUrl(config.redisUrl)} (REDIS_URL)\n`);
  // One bounded attempt first: an unreachable Redis is one clear line and exit 3, not the endless
  // reconnect errors of the fleet's own connection (which must keep retrying once running).
  try {
    await probeRedis(config.redisUrl, 5_000);
  } catch (error) {
    throw new FleetUnreachableError(
      `Redis at REDIS_URL=${redactRedisUrl(config.redisUrl)} is unreachable: ${(error as Error).message}`,
    );
  }
  const redis = connectRedis(config.redisUrl, role);
  // Later losses (a restart) are logged once per attempt, not printed raw by ioredis.
  redis.on('error', (error) => logger.warn({ err: error }, 'Redis connection error; reconnecting'));
  try {
    await within(10_000, 'PING', redis.ping());
  } catch (error) {
    redis.disconnect();
    throw new FleetUnreachableError(
      `Redis at REDIS_URL=${redactRedisUrl(config.redisUrl)} is unreachable: ${(error as Error).message}`,
    );
  }
  await warnUnlessNoEviction(redis, logger);
  const keys = fleetKeys(config.prefix);
  const queues = openQueues(redis, config.prefix, (error, queue) =>
    logger.warn({ err: error, queue }, 'Redis connection error; reconnecting'),
  );
  return {
    config,
    redis,
    keys,
    queues,
    store: new RedisRunStore(redis, keys, config.runRetentionMs),
    reconciles: new RedisReconcileStore(redis, keys, config.runRetentionMs),
    registry: new FileRegistry(redis, keys),
    close: async () => {
      await queues.close();
      await redis.quit();
    },
    disconnect: () => {
      for (const queue of queues.all) void queue.disconnect().catch(() => undefined);
      redis.disconnect();
    },
  };
}

export class FleetUnreachableError extends Error {}

/**
 * A long-running fleet process (worker, scheduler): `body` registers in `opened` whatever it opens;
 * fleet and configuration failures become exit codes, and what was opened is closed, last first,
 * however the body ends (also when its start fails half-way, e.g. an admin port in use).
 */
export async function runFleetProcess(
  body: (opened: (() => Promise<unknown>)[]) => Promise<ExitCode>,
): Promise<ExitCode> {
  const opened: (() => Promise<unknown>)[] = [];
  try {
    return await body(opened);
  } catch (error) {
    const code = fleetFailure(error);
    if (code === undefined) throw error;
    return code;
  } finally {
    await closeAll(opened);
  }
}

/** Resolves on the first SIGTERM or SIGINT: the signal to shut a long-running process down. */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
}

/** Exit code and message for the errors every fleet command shares. */
export function fleetFailure(error: unknown): ExitCode | undefined {
  if (error instanceof ConfigError) {
    process.stderr.write(`erp-bridge: ${error.message}\n`);
    return EXIT.INVALID_CONFIG;
  }
  if (error instanceof FleetUnreachableError) {
    process.stderr.write(`erp-bridge: ${error.message}\n`);
    return EXIT.SERVICE_UNAVAILABLE;
  }
  return undefined;
}

/**
 * A fleet command's feed files, loaded and checked (`check`) before Redis is asked: a wrong feed
 * is the user's mistake (exit 2) whether or not Redis is up. An exit code when they are not right.
 */
export async function loadFleetFeeds(
  feedFiles: string[],
  check: (feeds: LoadedFeed[]) => void = () => {},
): Promise<LoadedFeed[] | ExitCode> {
  try {
    const feeds = await loadFeedFiles(feedFiles);
    check(feeds);
    return feeds;
  } catch (error) {
    const code = fleetFailure(error);
    if (code === undefined) throw error;
    return code;
  }
}

/**
 * Runs a fleet command: connects, hands over the wiring, always closes it, and maps the shared
 * failures (bad configuration: 2, Redis unreachable: 3) to exit codes.
 */
export function withFleet(
  logger: Logger,
  role: string,
  command: (fleet: FleetWiring) => Promise<ExitCode>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ExitCode> {
  return runFleetProcess(async (opened) => {
    const fleet = await connectFleet(env, logger, role);
    opened.push(() => fleet.close());
    return command(fleet);
  });
}

/** The console's read port over this fleet's Redis (the admin server's /console). */
export const fleetConsoleSource = (fleet: FleetWiring): FleetConsoleSource =>
  new FleetConsoleSource({
    store: fleet.store,
    registry: fleet.registry,
    reconciles: fleet.reconciles,
    alerts: () => new RedisFeedHealthStore(fleet.redis, fleet.keys).openAlerts(),
    now: () => Date.now(),
  });
