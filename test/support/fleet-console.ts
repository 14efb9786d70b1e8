import type { Redis } from 'ioredis';
import { FleetConsoleSource } from '../../src/fleet/console-source.js';
import { FileRegistry } from '../../src/fleet/file-registry.js';
import type { FleetKeys } from '../../src/fleet/keys.js';
import { RedisReconcileStore } from '../../src/fleet/reconcile-store.js';
import { RedisRunStore } from '../../src/fleet/run-store.js';
import { RedisFeedHealthStore } from '../../src/ops/alerts/redis-health-store.js';

/**
 * The fleet's stores over one Redis prefix and the console's source over them, wired as
 * src/cli/fleet.ts wires `worker` and `scheduler` (alerts from the feed health included).
 */
export function fleetConsoleWorld(redis: Redis, keys: FleetKeys, retentionMs: number) {
  const store = new RedisRunStore(redis, keys, retentionMs);
  const registry = new FileRegistry(redis, keys);
  const reconciles = new RedisReconcileStore(redis, keys, retentionMs);
  const health = new RedisFeedHealthStore(redis, keys);
  const source = new FleetConsoleSource({
    store,
    registry,
    reconciles,
    alerts: () => health.openAlerts(),
    now: () => Date.now(),
  });
  return { store, registry, reconciles, health, source };
}
