import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * A Redis connection for the fleet. BullMQ's blocking connections need
 * `maxRetriesPerRequest: null` (otherwise a Redis restart fails its commands instead of waiting);
 * we use it everywhere so a restart pauses the fleet rather than losing work.
 */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    connectionName: `erp-bridge:${name}`,
    // A dropped connection (disconnect(): a shutdown past its deadline) ends its socket and waits
    // this long for Redis to close it before destroying it; a hung Redis never does, and ioredis's
    // 2 s default would hold the process that long. BullMQ's duplicates inherit it.
    disconnectTimeout: 200,
  });
}

/** The URL as it may be shown: a password (and a user name beside it) replaced by ***. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL (unparsable)';
  }
}

/**
 * One bounded attempt to reach Redis: connects without retrying and PINGs within `timeoutMs`.
 * The fleet's own connection retries forever (right for a running worker, whose Redis restarts),
 * which at start-up turns an unreachable Redis into an endless stream of ioredis errors; this probe
 * gives a command one answer instead. Resolves, or rejects with what failed.
 */
export async function probeRedis(url: string, timeoutMs: number): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectionName: 'erp-bridge:probe',
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND, a TLS failure) says more than the
  // "Connection is closed." that connect() rejects with once it gives up.
  let cause: Error | undefined;
  probe.on('error', (error: Error) => {
    cause ??= error;
  });
  const timer = setTimeout(() => probe.disconnect(), timeoutMs);
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const message = cause?.message ?? (error as Error).message;
    throw new Error(message === 'Connection is closed.' ? `no answer within ${timeoutMs} ms` : message);
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
}

/**
 * BullMQ keeps jobs in Redis: an eviction policy other than noeviction can silently delete them.
 * We warn rather than refuse, because managed Redis offerings do not always allow CONFIG GET.
 */
export async function warnUnlessNoEviction(redis: Redis, logger: Logger): Promise<void> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
    const policy = reply[1];
    if (policy !== undefined && policy !== 'noeviction')
      logger.warn(
        { maxmemoryPolicy: policy },
        'Redis maxmemory-policy is not noeviction: Redis may evict queued jobs under memory pressure; set maxmemory-policy noeviction',
      );
  } catch (error) {
    logger.warn(
      { err: error },
      'could not read Redis maxmemory-policy (CONFIG GET refused); make sure it is noeviction',
    );
  }
}

/**
 * Without persistence (no AOF, no RDB snapshots) a Redis restart loses every queued job, run and
 * file claim; the fleet then forgets what it imported. Warned once at start. `INFO persistence`
 * is read rather than CONFIG GET, because managed Redis offerings often refuse CONFIG but allow
 * INFO; if both are refused, the warning says persistence could not be checked.
 */
export async function warnUnlessPersistent(redis: Redis, logger: Logger): Promise<void> {
  let aof: boolean | undefined;
  let rdb: boolean | undefined;
  try {
    const info = await redis.info('persistence');
    const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
    aof = field('aof_enabled') === undefined ? undefined : field('aof_enabled') === '1';
  } catch {
    // INFO refused: CONFIG GET below may still answer.
  }
  try {
    const save = ((await redis.config('GET', 'save')) as string[])[1];
    rdb = save === undefined ? undefined : save.trim() !== '';
    if (aof === undefined) {
      const appendonly = ((await redis.config('GET', 'appendonly')) as string[])[1];
      if (appendonly !== undefined) aof = appendonly === 'yes';
    }
  } catch {
    // A managed Redis may refuse CONFIG: INFO's answer (if any) is all we have.
  }
  if (aof === true || rdb === true) return;
  if (aof === false && rdb === false)
    logger.warn(
      { appendonly: 'no', save: '' },
      'Redis persistence is off (appendonly no, save ""): a Redis restart loses queued jobs, runs and file claims; set appendonly yes',
    );
  else if (aof === false && rdb === undefined)
    logger.warn(
      { appendonly: 'no' },
      'Redis AOF is off and the snapshot setting could not be read (CONFIG GET refused): a Redis restart may lose queued jobs; make sure Redis persists (appendonly yes)',
    );
  else
    logger.warn(
      'could not read Redis persistence settings (INFO and CONFIG GET refused); make sure Redis persists (appendonly yes)',
    );
}
