import type { Redis } from 'ioredis';
import { gateNamespace } from './gate-keys.js';
import { busyScript } from './gate-scripts.js';

/** Escapes Redis glob characters, so a prefix is matched literally. */
const literal = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

/**
 * Live leases per tenant across the fleet (the gate's tenant names, e.g. `account:1001`), read
 * from the gate's slot keys. The gate keeps no list of tenants, so the keys are found with SCAN;
 * slot keys expire on their own, so only tenants active within a lease TTL are listed.
 */
export async function busySlotsByTenant(redis: Redis, keyPrefix?: string): Promise<Map<string, number>> {
  const slots = `${gateNamespace(keyPrefix)}:slots:`;
  const busy = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${literal(slots)}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) busy.set(key.slice(slots.length), await busyScript.run(redis, [key], []));
  } while (cursor !== '0');
  return busy;
}
