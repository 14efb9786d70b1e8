import type { Redis } from 'ioredis';
import { fleetKeys } from '../fleet/keys.js';
import { readQueueDepth } from '../fleet/queue-depth.js';
import type { FleetQueues } from '../fleet/queues.js';
import { accountOfTenant } from '../gate/gate.js';
import { busySlotsByTenant } from '../gate/slot-census.js';
import { within } from '../time/deadline.js';
import { RedisFeedHealthStore } from './alerts/redis-health-store.js';
import type { FleetReadings } from './metrics.js';

/**
 * The gauges' readings from the fleet's Redis: queue depth (BullMQ's counts), busy tenant slots
 * (the gate's keys) and failing feeds (the alerts' shared health state). Each gives up after
 * `timeoutMs`, so a scrape never hangs on a lost Redis.
 */
export function fleetReadings(
  fleet: { queues: FleetQueues; redis: Redis; prefix: string },
  timeoutMs = 5_000,
): FleetReadings {
  const health = new RedisFeedHealthStore(fleet.redis, fleetKeys(fleet.prefix));
  return {
    queueDepth: () => within(timeoutMs, 'queue depth', readQueueDepth(fleet.queues)),
    feedFailing: () => within(timeoutMs, 'feed health', health.failing()),
    tenantSlots: async () => {
      const busy = await within(timeoutMs, 'tenant slots', busySlotsByTenant(fleet.redis, fleet.prefix));
      return new Map([...busy].map(([tenant, n]) => [accountOfTenant(tenant), n]));
    },
  };
}
