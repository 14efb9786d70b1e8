import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCursorStore } from '../../../src/in-process/cursor-file-store.js';
import { databaseFeedFile } from '../../support/database-double.js';
import { expectEachRowOnce, testDialects } from '../../support/database-reads.js';
import { createTestDatabase, refusedUser, type TestDatabase, timedUser } from '../../support/databases.js';
import { bigBookings, killedRead } from '../../support/killed-read.js';
import { captureLogs } from '../../support/log-capture.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 29 point 6 end to end, in process: the real reader against the machine's PostgreSQL and
 * MariaDB, the run's cursor, and the sandbox as the service. A connection killed mid-read, a
 * refused login, a mapping or cursor naming a column the table does not have: each run stops with
 * its code and exit code, its position stays, and a rerun leaves every row in the service once.
 */
const { dialects, missing } = await testDialects();
const ROWS = 3_000;
const SECRET = 'Sekr3t-wrong-pw';
// One bank account for every test (the sandbox's account has few); externalIds carry the test's prefix.
const GIRO = 'db-faults-giro';

const logs = captureLogs();
let h: SyncHarness;
beforeAll(async () => {
  h = await syncHarness({}, { logger: logs.logger });
});
afterAll(() => h.close());

/** The bulk writes that reached the sandbox (any status). */
const bulkWrites = () =>
  Object.values(h.requests('createTransactionsBulk')).reduce((sum, count) => sum + count, 0);

/** The feed file of `databaseFeedFile` with one text of it replaced (a mapping, the cursor). */
function editedFeed(feedFile: string, from: string, to: string): string {
  const text = readFileSync(feedFile, 'utf8');
  if (!text.includes(from)) throw new Error(`${feedFile} has no ${from}`);
  writeFileSync(feedFile, text.replace(from, to));
  return feedFile;
}

/** Every file's text under the run's report folder. */
function reportTexts(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}

describe.each(dialects)('database faults in a sync from %s', (dialect) => {
  const skip = missing[dialect];
  describe.skipIf(skip !== undefined)(`${dialect}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let db: TestDatabase;
    const newCursor = () => new FileCursorStore(mkdtempSync(join(tmpdir(), 'erp-bridge-db-faults-')));

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      await bigBookings(db, ROWS, `${dialect}-kill-`);
    });
    afterAll(() => db?.drop());

    it('a connection killed mid-read stops the run (CONNECTION_LOST, exit 3), its position stays; the rerun leaves every row once', async () => {
      const name = `db-kill-${dialect}`;
      const feedFile = databaseFeedFile(name, 'bank_bookings', dialect, GIRO);
      const cursor = newCursor();
      const env = { ERP_DB_URL: db.url };
      // Once a chunk's write has reached the sandbox, the reader's session is killed.
      const read = killedRead(
        () => bulkWrites() > 0,
        () => db.killSessions(),
      );
      const stopped = await h.run(feedFile, false, undefined, { cursor, env, openDatabase: read.open });
      expect(read.killed()).toBeGreaterThan(0);
      expect(stopped.summary.stopReason).toMatchObject({ code: 'CONNECTION_LOST', exitCode: 3 });
      expect(await cursor.load(name)).toBeUndefined();
      const ours = () => h.transactions(1001).filter((t) => t.externalId?.startsWith(`${dialect}-kill-`));
      // Part was sent before the kill, not all of it.
      expect(ours().length).toBeGreaterThan(0);
      expect(ours().length).toBeLessThan(ROWS);

      const rerun = await h.run(feedFile, false, undefined, { cursor, env });
      await expectEachRowOnce(rerun, ours(), cursor.load(name), ROWS);
    });

    // The login refused (refusedUser: on PostgreSQL a role that may not log in).
    it('a refused login stops the run (exit 3); the password is in no summary, report file or log line', async () => {
      const user = await refusedUser(db, 'erp_run');
      const url = new URL(db.url);
      url.username = user;
      url.password = SECRET;
      const name = `db-refused-${dialect}`;
      const feedFile = databaseFeedFile(name, 'bank_bookings', dialect, GIRO);
      const cursor = newCursor();
      const sent = bulkWrites();
      logs.lines.length = 0;
      const run = await h.run(feedFile, false, undefined, { cursor, env: { ERP_DB_URL: url.toString() } });
      expect(run.summary.stopReason).toMatchObject({ code: 'AUTH_FAILED', exitCode: 3 });
      expect(run.summary.stopReason?.message).toContain(user);
      expect(bulkWrites()).toBe(sent);
      expect(await cursor.load(name)).toBeUndefined();
      const texts = [JSON.stringify(run.summary), ...reportTexts(run.files.dir), ...logs.lines];
      // The refusal is in the report and the log (so they were read), the password is not.
      expect(logs.lines.some((line) => line.includes('AUTH_FAILED'))).toBe(true);
      expect(reportTexts(run.files.dir).some((text) => text.includes('AUTH_FAILED'))).toBe(true);
      for (const text of texts) expect(text).not.toContain('Sekr3t');
    });

    it('a statement the server cuts off (its timeout for the login) stops the run (TIMEOUT, exit 3); its position stays', async () => {
      const url = await timedUser(db, 'erp_timed', 200);
      const sleep = dialect === 'postgres' ? 'pg_sleep(0.001)' : 'SLEEP(0.001)';
      const name = `db-timeout-${dialect}`;
      const feedFile = editedFeed(
        databaseFeedFile(name, 'bank_bookings', dialect, GIRO),
        'table: bank_bookings',
        `query: "SELECT b.*, ${sleep} AS z FROM bank_bookings b"`,
      );
      const cursor = newCursor();
      const sent = bulkWrites();
      const run = await h.run(feedFile, false, undefined, { cursor, env: { ERP_DB_URL: url } });
      expect(run.summary.stopReason).toMatchObject({ code: 'TIMEOUT', exitCode: 3 });
      expect(bulkWrites()).toBe(sent);
      expect(await cursor.load(name)).toBeUndefined();
    });

    it.each([
      {
        what: 'a mapping naming a column the table does not have',
        from: 'purpose: memo',
        to: 'purpose: memo_text',
        code: 'SOURCE_LAYOUT',
        names: 'memo_text',
      },
      {
        what: 'a cursor column the table does not have',
        from: 'cursor: { column: updated_at,',
        to: 'cursor: { column: changed_at,',
        code: 'NO_SUCH_COLUMN',
        names: 'changed_at',
      },
    ])('$what stops the run ($code, exit 2) before anything is sent', async ({ from, to, code, names }) => {
      const name = `db-${names}-${dialect}`;
      const feedFile = editedFeed(databaseFeedFile(name, 'bank_bookings', dialect, GIRO), from, to);
      const cursor = newCursor();
      const sent = bulkWrites();
      const run = await h.run(feedFile, false, undefined, { cursor, env: { ERP_DB_URL: db.url } });
      expect(run.summary.stopReason).toMatchObject({ code, exitCode: 2 });
      expect(run.summary.stopReason?.message).toContain(names);
      expect(bulkWrites()).toBe(sent);
      expect(await cursor.load(name)).toBeUndefined();
    });
  });
});
