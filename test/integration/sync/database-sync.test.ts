import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedCheck } from '../../../src/check/check-feed.js';
import { FileCursorStore } from '../../../src/in-process/cursor-file-store.js';
import { runCli } from '../../support/cli-run.js';
import { databaseFeedFile } from '../../support/database-double.js';
import { testDialects } from '../../support/database-reads.js';
import { createTestDatabase, type TestDatabase } from '../../support/databases.js';
import { type SyncHarness, syncHarness } from '../../support/sync-harness.js';

/**
 * Issue 29 end to end, in process: the real reader (src/sources/database/) against the machine's
 * PostgreSQL and MariaDB, the run side's cursor, and the sandbox as the service.
 */
const { dialects, missing } = await testDialects();

let h: SyncHarness;
beforeAll(async () => {
  h = await syncHarness();
});
afterAll(() => h.close());

describe.each(dialects)('a database feed synced from %s', (dialect) => {
  const skip = missing[dialect];
  describe.skipIf(skip !== undefined)(`${dialect}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      await db.exec(
        `CREATE TABLE bank_bookings (id bigint PRIMARY KEY, ext varchar(40) NOT NULL, updated_at timestamp(6) NOT NULL,
          booked_on date NOT NULL, amount decimal(14,2) NOT NULL, memo text)`,
      );
      await db.exec(
        `INSERT INTO bank_bookings VALUES
          (1, '${dialect}-e2e-1', '2026-11-01 10:00:00.000001', '2026-11-01', 12.34, 'Miete'),
          (2, '${dialect}-e2e-2', '2026-11-01 10:00:00.000001', '2026-11-02', -0.10, 'Kantine'),
          (3, '${dialect}-e2e-3', '2026-11-01 10:00:02', '2026-11-03', 99999999.99, NULL)`,
      );
    });
    afterAll(() => db?.drop());

    it('reads every row once, then only rows after the stored position; outcomes name table:key', async () => {
      const feedFile = databaseFeedFile(`db-e2e-${dialect}`, 'bank_bookings', dialect);
      const cursor = new FileCursorStore(mkdtempSync(join(tmpdir(), 'erp-bridge-db-e2e-')));
      const run = () => h.run(feedFile, false, undefined, { cursor, env: { ERP_DB_URL: db.url } });
      const first = await run();
      expect(first.summary.stopReason).toBeUndefined();
      expect(first.summary.counts.created).toBe(3);
      expect(first.outcomes.map((o) => `${o.file}:${o.key}`)).toEqual([
        'bank_bookings:1',
        'bank_bookings:2',
        'bank_bookings:3',
      ]);
      const stored = h.transactions(1001).filter((t) => t.externalId?.startsWith(`${dialect}-e2e-`));
      expect(stored.map((t) => String(t.amount)).sort()).toEqual(['-0.1', '12.34', '99999999.99']);
      expect(await cursor.load(`db-e2e-${dialect}`)).toMatchObject({ tieBreaker: '3' });

      await db.exec(
        `INSERT INTO bank_bookings VALUES (4, '${dialect}-e2e-4', '2026-11-01 10:00:03', '2026-11-04', 1.00, 'neu')`,
      );
      const second = await run();
      expect(second.summary.files.map((f) => [f.path, f.records])).toEqual([['bank_bookings', 1]]);
      expect(second.outcomes.map((o) => [o.key, o.outcome])).toEqual([['4', 'created']]);
      expect(await cursor.load(`db-e2e-${dialect}`)).toMatchObject({ tieBreaker: '4' });
    });

    it('check reads every row (no position kept), names a row by its key, a NULL required value rejected naming its column', async () => {
      await db.exec(
        `CREATE TABLE check_bookings (id bigint PRIMARY KEY, ext varchar(40) NOT NULL, updated_at timestamp(6) NOT NULL,
          booked_on date NULL, amount decimal(14,2) NOT NULL, memo text)`,
      );
      await db.exec(
        `INSERT INTO check_bookings VALUES
          (10, 'c-10', '2026-11-01 10:00:00', '2026-11-01', 1190.00, 'Rechnung'),
          (11, 'c-11', '2026-11-01 10:00:01', NULL, -84.50, 'Strom'),
          (12, 'c-12', '2026-11-01 10:00:02', '2026-11-28', 0.01, 'Zins')`,
      );
      const feedFile = databaseFeedFile(`db-check-${dialect}`, 'check_bookings', dialect);
      const ran = await runCli(['check', feedFile, '--json', '--show', '1'], { ERP_DB_URL: db.url });
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(1);
      const out = JSON.parse(ran.stdout) as { feeds: { check: FeedCheck }[] };
      const checked = out.feeds[0]?.check as FeedCheck;
      expect(checked.files).toEqual([{ file: 'check_bookings', records: 3 }]);
      expect(checked.totals.wouldSend).toEqual({ records: 2, amounts: { EUR: '1190.01' } });
      const bookingDate = checked.fields.find((f) => f.field === 'bookingDate');
      expect(bookingDate?.rejected).toBe(1);
      expect(bookingDate?.examples).toEqual([
        expect.objectContaining({
          file: 'check_bookings',
          key: '11',
          reason: expect.stringContaining('booked_on'),
        }),
      ]);
      expect(checked.samples).toEqual([
        {
          file: 'check_bookings',
          line: 1,
          key: '10',
          payload: expect.objectContaining({ externalId: 'c-10', amount: 1190 }),
        },
      ]);
      // Twice the same: check stores no position.
      const again = await runCli(['check', feedFile, '--json'], { ERP_DB_URL: db.url });
      expect((JSON.parse(again.stdout) as { feeds: { check: FeedCheck }[] }).feeds[0]?.check.files).toEqual([
        { file: 'check_bookings', records: 3 },
      ]);
    });

    it('reconcile compares every row of the table with the service: equal, then different and extra', async () => {
      await db.exec(
        `CREATE TABLE rec_bookings (id bigint PRIMARY KEY, ext varchar(40) NOT NULL, updated_at timestamp(6) NOT NULL,
          booked_on date NOT NULL, amount decimal(14,2) NOT NULL, memo text)`,
      );
      await db.exec(
        `INSERT INTO rec_bookings VALUES
          (1, '${dialect}-rec-1', '2026-11-01 10:00:00', '2026-11-01', 10.00, 'a'),
          (2, '${dialect}-rec-2', '2026-11-01 10:00:01', '2026-11-02', 20.00, 'b'),
          (3, '${dialect}-rec-3', '2026-11-01 10:00:02', '2026-11-03', 30.00, 'c')`,
      );
      const name = `db-rec-${dialect}`;
      const feedFile = databaseFeedFile(name, 'rec_bookings', dialect, `rec-giro-${dialect}`);
      const cursor = new FileCursorStore(mkdtempSync(join(tmpdir(), 'erp-bridge-db-rec-')));
      const env = { ERP_DB_URL: db.url };
      expect((await h.run(feedFile, false, undefined, { cursor, env })).summary.counts.created).toBe(3);

      const equal = await h.reconcile(feedFile, env);
      expect(equal.summary.stopReason).toBeUndefined();
      expect(equal.summary.files).toEqual(['rec_bookings']);
      expect(equal.summary.counts).toMatchObject({ equal: 3, missing: 0, different: 0, extra: 0 });

      // The ERP's books change: an amount corrected, a booking deleted. The cursor is not involved:
      // reconcile reads every row.
      await db.exec(`UPDATE rec_bookings SET amount = 21.00 WHERE id = 2`);
      await db.exec(`DELETE FROM rec_bookings WHERE id = 3`);
      const changed = await h.reconcile(feedFile, env);
      expect(changed.summary.counts).toMatchObject({ equal: 1, different: 1, extra: 1 });
      expect(changed.lines.find((l) => l.verdict === 'different')).toMatchObject({
        externalId: `${dialect}-rec-2`,
      });
      expect(changed.lines.find((l) => l.verdict === 'extra')).toMatchObject({
        externalId: `${dialect}-rec-3`,
      });
    });

    it('a date field mapped to a timestamp column takes its date in the feed’s timeZone', async () => {
      // Half past eleven at night in UTC is the next day in Berlin. MariaDB knows zone names only
      // with its time zone tables (not loaded here): there the feed's zone is UTC.
      const zone = dialect === 'postgres' ? 'Europe/Berlin' : 'UTC';
      const type = dialect === 'postgres' ? 'timestamptz' : 'timestamp';
      await db.exec(
        `CREATE TABLE ts_bookings (id bigint PRIMARY KEY, ext varchar(40) NOT NULL, updated_at timestamp(6) NOT NULL,
          booked_at ${type} NOT NULL, amount decimal(14,2) NOT NULL, memo text)`,
      );
      if (dialect === 'mysql') await db.exec(`SET time_zone = '+00:00'`);
      await db.exec(
        `INSERT INTO ts_bookings VALUES (1, '${dialect}-ts-1', '2026-11-01 10:00:00', '2026-10-31 23:30:00${dialect === 'postgres' ? '+00' : ''}', 5.00, 'spät')`,
      );
      const feedFile = databaseFeedFile(`db-ts-${dialect}`, 'ts_bookings', dialect, `ts-giro-${dialect}`);
      writeFileSync(
        feedFile,
        readFileSync(feedFile, 'utf8')
          .replace('bookingDate: booked_on', 'bookingDate: booked_at')
          .replace('  cursor:', `  timeZone: ${zone}\n  cursor:`),
      );
      const ran = await runCli(['check', feedFile, '--json'], { ERP_DB_URL: db.url });
      expect(ran.stderr).toBe('');
      const checked = (JSON.parse(ran.stdout) as { feeds: { check: FeedCheck }[] }).feeds[0]?.check;
      expect(checked?.samples.map((s) => (s.payload as { bookingDate: string }).bookingDate)).toEqual([
        dialect === 'postgres' ? '2026-11-01' : '2026-10-31',
      ]);
    });

    it('a URL variable not set stops the run (exit 2) naming it; nothing is stored', async () => {
      const feedFile = databaseFeedFile(`db-e2e-nourl-${dialect}`, 'bank_bookings', dialect);
      const cursor = new FileCursorStore(mkdtempSync(join(tmpdir(), 'erp-bridge-db-e2e-')));
      const run = await h.run(feedFile, false, undefined, { cursor, env: {} });
      expect(run.summary.stopReason).toMatchObject({ code: 'URL_MISSING', exitCode: 2 });
      expect(run.summary.stopReason?.message).toContain('ERP_DB_URL');
      expect(await cursor.load(`db-e2e-nourl-${dialect}`)).toBeUndefined();
    });
  });
});
