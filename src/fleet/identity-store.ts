import type { Redis } from 'ioredis';
import type { IdentityStore, StoredIdentity } from '../sync/identity/check.js';
import { type IdentitySettings, StoredIdentitySettings } from '../sync/identity/settings.js';
import type { FleetKeys } from './keys.js';

/**
 * The fleet's identity settings per feed, one key each (no expiry: they outlive every run). A
 * feed without one whose health was ever recorded ran before settings were kept (scheme 1).
 */
export class RedisIdentityStore implements IdentityStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: FleetKeys,
  ) {}

  async load(feed: string): Promise<StoredIdentity> {
    const text = await this.redis.get(this.keys.feedIdentity(feed));
    if (text !== null) {
      try {
        return { kind: 'stored', settings: StoredIdentitySettings.parse(JSON.parse(text)) };
      } catch {
        throw new Error(
          `the identity settings of feed ${feed} in Redis (${this.keys.feedIdentity(feed)}) are unreadable; fix or delete the key`,
        );
      }
    }
    const [records, failing] = await Promise.all([
      this.redis.exists(this.keys.feedRecords(feed)),
      this.redis.hexists(this.keys.feedHealth(), `failing:${feed}`),
    ]);
    return records + failing > 0 ? { kind: 'legacy' } : { kind: 'none' };
  }

  async save(feed: string, settings: IdentitySettings): Promise<void> {
    await this.redis.set(this.keys.feedIdentity(feed), JSON.stringify(settings));
  }
}
