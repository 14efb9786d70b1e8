import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * A Redis connection for the fleet. BullMQ's blocking connections need
 * `maxRetriesPerRequest: null` (otherwise a Redis restart fails its commands instead of waiting);
 * we use it everywhere so a restart pauses the fleet rather than losing work.
 */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: `erp-bridge:${name}` });
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
