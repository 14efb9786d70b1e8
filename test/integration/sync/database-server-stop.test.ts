import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCursorStore } from '../../../src/in-process/cursor-file-store.js';
import { databaseFeedFile } from '../../support/database-double.js';
import { expectEachRowOnce } from '../../support/database-reads.js';
import { createTestDatabase, type TestDialect } from '../../support/databases.js';
import { bigBookings, killedRead } from '../../support/killed-read.js';
import { type PrivateStart, startPrivateServer } from '../../support/private-database.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 29 point 6, "the database stopping mid-read", end to end in process: the real reader reads
 * a server of the test's own (the machine's shared servers keep running), the server shuts down
 * (PostgreSQL's fast shutdown, MariaDB's shutdown) once part of the rows has reached the sandbox;
 * the run stops with exit 3 and keeps its position; once the server is back, the rerun leaves
 * every row in the service once.
 */
const ROWS = 3_000;
// 8 KB of unmapped pad a row (24 MB in all): a shutdown closes the connection gently, so MariaDB's
// client still gets every row the sockets held (some megabytes: with 2 KB rows, the whole table).
const PAD = 8_000;
const GIRO = 'db-stop-giro';
const dialects: TestDialect[] = ['postgres', 'mysql'];
const started: Record<TestDialect, PrivateStart> = Object.fromEntries(
  await Promise.all(dialects.map(async (dialect) => [dialect, await startPrivateServer(dialect)])),
);
// Always: a server of our own is killed and its folder removed, whatever the tests did.
afterAll(() => Promise.all(dialects.map((dialect) => started[dialect].server?.destroy())));

let h: SyncHarness;
beforeAll(async () => {
  h = await syncHarness();
});
afterAll(() => h?.close());

/** The bulk writes that reached the sandbox (any status). */
const bulkWrites = () =>
  Object.values(h.requests('createTransactionsBulk')).reduce((sum, count) => sum + count, 0);

describe.each(dialects)('a private %s server stopping mid-read', (dialect) => {
  const { server, missing } = started[dialect];
  describe.skipIf(server === undefined)(`${dialect}${missing ? ` (skipped: ${missing})` : ''}`, () => {
    const prefix = `${dialect}-stop-`;
    let url = '';
    beforeAll(async () => {
      if (!server) return;
      const db = await createTestDatabase(dialect, 'erp_bridge_stop', server.url);
      await bigBookings(db, ROWS, prefix, PAD);
      url = db.url;
    });

    it('stops the run (CONNECTION_LOST, exit 3), its position stays; once it is back the rerun leaves every row once', async () => {
      if (!server) return;
      const name = `db-stop-${dialect}`;
      const feedFile = databaseFeedFile(name, 'bank_bookings', dialect, GIRO);
      const cursor = new FileCursorStore(mkdtempSync(join(tmpdir(), 'erp-bridge-db-stop-')));
      const env = { ERP_DB_URL: url };
      const before = bulkWrites();
      // Once a chunk's write has reached the sandbox, the server shuts down (waited for) before
      // the reader asks for its next batch.
      const read = killedRead(
        () => bulkWrites() > before,
        async () => {
          await server.stop();
          return 1;
        },
      );
      const stopped = await h.run(feedFile, false, undefined, { cursor, env, openDatabase: read.open });
      expect(read.killed()).toBe(1);
      expect(stopped.summary.stopReason).toMatchObject({ code: 'CONNECTION_LOST', exitCode: 3 });
      expect(await cursor.load(name)).toBeUndefined();
      const ours = () => h.transactions(1001).filter((t) => t.externalId?.startsWith(prefix));
      // Part was sent before the shutdown, not all of it.
      const sent = ours().length;
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThan(ROWS);

      await server.start();
      const rerun = await h.run(feedFile, false, undefined, { cursor, env });
      await expectEachRowOnce(rerun, ours(), cursor.load(name), ROWS);
      // The rows sent before the stop are found and skipped, the rest created.
      expect(rerun.summary.counts).toMatchObject({ created: ROWS - sent, skipped: sent, failed: 0 });
    });
  });
});
