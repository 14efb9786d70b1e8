import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisCursorStore } from '../../../src/fleet/cursor-store.js';
import { fleetKeys } from '../../../src/fleet/keys.js';
import { databaseFeedFile } from '../../support/database-double.js';
import { testDialects } from '../../support/database-reads.js';
import { createTestDatabase, type TestDatabase } from '../../support/databases.js';
import { fleetTestWorld } from '../../support/fleet-harness.js';
import { bigBookings, killedRead } from '../../support/killed-read.js';

/**
 * Issue 29 point 6 in the fleet, against the machine's real servers: a worker's read whose
 * connection is killed mid-read stops the run (exit 3) with no position stored, the rerun leaves
 * every row in the service once, and the URL's password is in no key or value in Redis.
 */
const { dialects, missing } = await testDialects();
const world = fleetTestWorld();
const ROWS = 3_000;
const SECRET = 'Fleet-Sekr3t-pw';

/** Every key under `prefix` with its value, whatever its type, as text. */
async function redisTexts(redis: Redis, prefix: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
    for (const key of keys as string[]) {
      texts.push(key);
      const type = await redis.type(key);
      const value =
        type === 'string'
          ? await redis.get(key)
          : type === 'hash'
            ? await redis.hgetall(key)
            : type === 'list'
              ? await redis.lrange(key, 0, -1)
              : type === 'set'
                ? await redis.smembers(key)
                : type === 'zset'
                  ? await redis.zrange(key, 0, -1)
                  : type === 'stream'
                    ? await redis.xrange(key, '-', '+')
                    : `(${type})`;
      texts.push(JSON.stringify(value));
    }
  }
  return texts;
}

describe.each(dialects)('a database feed in the fleet, killed mid-read, on %s', (dialect) => {
  const skip = missing[dialect];
  describe.skipIf(skip !== undefined)(`${dialect}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let db: TestDatabase;
    /** The database's URL with a password: a user of its own on MariaDB, trusted on PostgreSQL. */
    let url: string;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      // 8 KB of unmapped pad a row: MariaDB sends fast enough that, with small rows on a busy
      // machine, the whole table was sent before the first chunk's write (nothing left to kill).
      await bigBookings(db, ROWS, `${dialect}-fleet-kill-`, 8_000);
      const withPassword = new URL(db.url);
      if (dialect === 'mysql') {
        withPassword.username = `erp_fleet_${db.name.slice(-8)}`;
        for (const host of ['127.0.0.1', 'localhost']) {
          db.cleanups.push(`DROP USER IF EXISTS '${withPassword.username}'@'${host}'`);
          await db.exec(`CREATE USER '${withPassword.username}'@'${host}' IDENTIFIED BY '${SECRET}'`);
          await db.exec(`GRANT ALL ON ${db.name}.* TO '${withPassword.username}'@'${host}'`);
        }
      }
      withPassword.password = SECRET;
      url = withPassword.toString();
    });
    afterAll(() => db?.drop());

    it('stops the run (CONNECTION_LOST, exit 3), stores no position; the rerun leaves every row once; the password nowhere in Redis', async () => {
      const fleet = world.start();
      const cursor = new RedisCursorStore(fleet.connection, fleetKeys(fleet.config.prefix));
      const env = { ERP_DB_URL: url };
      const read = killedRead(
        () => world.requests().some((r) => r.operation === 'createTransactionsBulk'),
        () => db.killSessions(),
        env,
      );
      fleet.worker(2, { openDatabase: read.open });
      const name = `db-fleet-kill-${dialect}`;
      const feedFile = databaseFeedFile(name, 'bank_bookings', dialect, 'db-fleet-faults-giro');
      const [first] = await fleet.enqueue(feedFile);
      const stopped = await fleet.finished(String(first?.runId));
      expect(read.killed()).toBeGreaterThan(0);
      expect(stopped.stopReason).toMatchObject({ code: 'CONNECTION_LOST', exitCode: 3 });
      expect(await cursor.load(name)).toBeUndefined();
      const ours = () =>
        world.transactions(1001).filter((t) => t.externalId?.startsWith(`${dialect}-fleet-kill-`));
      expect(ours().length).toBeLessThan(ROWS);

      const [again] = await fleet.enqueue(feedFile);
      const rerun = await fleet.finished(String(again?.runId));
      expect(rerun.stopReason).toBeUndefined();
      const ids = ours().map((t) => t.externalId);
      expect(ids.length).toBe(ROWS);
      expect(new Set(ids).size).toBe(ROWS);
      expect(await cursor.load(name)).toMatchObject({ tieBreaker: String(ROWS) });

      const texts = await redisTexts(fleet.connection, fleet.config.prefix);
      // The runs' records are there (the scan saw them), the URL's password is not.
      expect(texts.some((text) => text.includes('CONNECTION_LOST'))).toBe(true);
      for (const text of texts) expect(text).not.toContain('Sekr3t');
    });
  });
});
