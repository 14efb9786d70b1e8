import type { Redis } from 'ioredis';
import { RedisScript } from '../gate/redis-script.js';
import type { IdentityStore, StoredIdentity } from '../sync/identity/check.js';
import { type IdentitySettings, StoredIdentitySettings } from '../sync/identity/settings.js';
import type { FleetKeys } from './keys.js';

/**
 * KEYS: the run's hash, the feed's identity key. Stores the settings the run's import recorded
 * (field `identity`) under the feed, the first time any chunk of the run asks (field
 * `identityStored`): once per run, in one step, whichever worker's chunk writes first.
 */
const storeForRunScript = new RedisScript(
  2,
  `
local settings = redis.call('HGET', KEYS[1], 'identity')
if not settings then return 0 end
if redis.call('HSETNX', KEYS[1], 'identityStored', '1') == 0 then return 0 end
redis.call('SET', KEYS[2], settings)
return 1
`,
);

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

  /**
   * The import of a run that may write: the settings it was checked under, kept with the run (and
   * expiring with it) for `storeForRun`. A chunk may run on any worker; the import's feed file is
   * the one the check read.
   */
  async expectWrites(runId: string, settings: IdentitySettings): Promise<void> {
    await this.redis.hset(this.keys.run(runId), 'identity', JSON.stringify(settings));
  }

  /** Before a chunk's first write: stores the settings `expectWrites` kept, once per run. */
  async storeForRun(runId: string, feed: string): Promise<void> {
    await storeForRunScript.call(this.redis, [this.keys.run(runId), this.keys.feedIdentity(feed)], []);
  }
}
