import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { FeedCheck } from '../../../src/check/check-feed.js';
import { runCli } from '../../support/cli-run.js';
import { testDialects } from '../../support/database-reads.js';
import { createTestDatabase, type TestDatabase } from '../../support/databases.js';
import { fillIn } from '../../support/init-cli.js';

/**
 * Issue 29 point 7: `erp-bridge init --location postgres --table T` on the machine's PostgreSQL
 * and MariaDB: the feed it writes (source without path and format, the cursor guessed, the
 * mapping), `check` on it once filled in, and its refusals (no --table, the URL variable unset,
 * no such table), none writing a file.
 */
const { dialects, missing } = await testDialects();
const work = mkdtempSync(join(tmpdir(), 'erp-bridge-init-db-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROWS = 10;

describe.each(dialects)('erp-bridge init on a %s table', (dialect) => {
  const skip = missing[dialect];
  describe.skipIf(skip !== undefined)(`${dialect}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let db: TestDatabase;
    const location = dialect === 'postgres' ? 'postgres' : 'mysql';
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      await db.exec(
        `CREATE TABLE bank_bookings (id bigint PRIMARY KEY, ext text, updated_at timestamp(6) NOT NULL,
          booked_on date NOT NULL, amount decimal(14,2) NOT NULL, memo text, counterparty text)`,
      );
      const values = Array.from(
        { length: ROWS },
        (_, i) =>
          `(${i + 1}, 'E-${i + 1}', '2026-11-01 10:00:0${i}.12345${i}', '2026-11-${String(i + 1).padStart(2, '0')}', ${i % 2 ? '-' : ''}${i + 1}${i}.5${i}, 'Rechnung ${i + 1}', 'Firma ${i % 3}')`,
      );
      await db.exec(`INSERT INTO bank_bookings VALUES ${values.join(', ')}`);
    });
    afterAll(() => db?.drop());

    it('writes the source (location, table, cursor; no path, no format) and the mapping; check reads the rows', async () => {
      const feed = join(work, dialect, 'bank_bookings.yaml');
      const ran = await runCli(['init', '--location', location, '--table', 'bank_bookings', '--out', feed], {
        ERP_DB_URL: db.url,
      });
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      expect(ran.stdout).toContain(`wrote ${feed} from bank_bookings (${ROWS} rows looked at)`);
      const text = readFileSync(feed, 'utf8');
      // The URL (with its user) stays in its variable: neither printed nor written.
      expect(`${ran.stdout}${text}`).not.toContain(db.url);
      const doc = parse(text);
      expect(doc.name).toBe('bank_bookings');
      expect(doc.source).toEqual({
        location: { type: location, urlEnv: 'ERP_DB_URL' },
        table: 'bank_bookings',
        cursor: { column: 'updated_at', tieBreaker: 'id' },
      });
      expect(doc.mapping).toMatchObject({
        bookingDate: 'booked_on',
        amount: 'amount',
        purpose: 'memo',
      });
      // A timestamp is no date under the fixed yyyy-MM-dd: said, not mapped.
      expect(Object.values(doc.mapping)).not.toContain('updated_at');
      expect(text).toContain('"updated_at" holds timestamps');

      fillIn(feed);
      const checked = await runCli(['check', feed, '--json', '--show', '0'], { ERP_DB_URL: db.url });
      expect(checked.stderr).toBe('');
      expect(checked.code).toBe(0);
      const out = JSON.parse(checked.stdout) as { feeds: { check: FeedCheck }[] };
      const check = out.feeds[0]?.check as FeedCheck;
      expect(check.files).toEqual([{ file: 'bank_bookings', records: ROWS }]);
      expect(check.totals.wouldSend.records).toBe(ROWS);
    });

    it('--query: the feed reads the query, named "query" unless --name says otherwise', async () => {
      const feed = join(work, dialect, 'query.yaml');
      const query = 'SELECT id, updated_at, booked_on, amount, memo FROM bank_bookings WHERE id <= 5';
      const ran = await runCli(['init', '--location', location, '--query', query, '--out', feed], {
        ERP_DB_URL: db.url,
      });
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      const doc = parse(readFileSync(feed, 'utf8'));
      expect(doc.name).toBe('query');
      expect(doc.source).toEqual({
        location: { type: location, urlEnv: 'ERP_DB_URL' },
        query,
        cursor: { column: 'updated_at', tieBreaker: 'id' },
      });
    });

    it('refuses a database location without --table (exit 2, naming the flag), writing nothing', async () => {
      const feed = join(work, dialect, 'no-table.yaml');
      const ran = await runCli(['init', '--location', location, '--out', feed], { ERP_DB_URL: db.url });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('--table: give the table to read');
      expect(existsSync(feed)).toBe(false);
    });

    it('refuses when the URL variable is unset (exit 2, naming it), writing nothing', async () => {
      const feed = join(work, dialect, 'no-url.yaml');
      const ran = await runCli(
        [
          'init',
          '--location',
          `{type: ${location}, urlEnv: ERP_OTHER_DB}`,
          '--table',
          'bank_bookings',
          '--out',
          feed,
        ],
        { ERP_DB_URL: db.url },
      );
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('ERP_OTHER_DB is not set');
      expect(existsSync(feed)).toBe(false);
    });

    it('refuses a table that does not exist (exit 2), writing nothing', async () => {
      const feed = join(work, dialect, 'missing.yaml');
      const ran = await runCli(['init', '--location', location, '--table', 'no_such_table', '--out', feed], {
        ERP_DB_URL: db.url,
      });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain('no_such_table');
      expect(existsSync(feed)).toBe(false);
    });
  });
});

describe('erp-bridge init --table without a database location', () => {
  it('exits 2 naming --table', async () => {
    const ran = await runCli(['init', 'x.csv', '--table', 'bank_bookings'], {});
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--table: only with a database location');
  });

  it('refuses a table name the feed would refuse, before connecting (exit 2, naming --table)', async () => {
    const ran = await runCli(['init', '--location', 'postgres', '--table', 'a;b'], {});
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--table: a table name');
  });
});
