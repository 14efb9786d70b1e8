import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseError } from '../../../src/sources/database/database-errors.js';
import type { CursorPosition, DatabaseReading } from '../../../src/sources/database/database-read.js';
import { DatabaseSource } from '../../../src/sources/database/database-settings.js';
import { openDatabase } from '../../../src/sources/database/open-database.js';
import type { SourceRow } from '../../../src/sources/row.js';
import { databaseFailure, testDialects } from '../../support/database-reads.js';
import { createTestDatabase, type TestDatabase, type TestDialect } from '../../support/databases.js';
import { freePort } from '../../support/redis-server.js';

/**
 * Issue 29, the reading side, against the machine's real PostgreSQL and MariaDB: exact values,
 * keyset cursors that neither skip nor repeat a row, bounded batches, and failures with their exit
 * codes, never with a password.
 */
const { dialects, missing } = await testDialects();

/** The test table in each dialect: the same columns, each type as the dialect spells it. */
const BOOKINGS: Record<TestDialect, string> = {
  postgres: `CREATE TABLE bank_bookings (id bigint PRIMARY KEY, amount numeric(20,6), big bigint, booked_on date,
    changed_at timestamptz(6) NOT NULL, memo text, flag boolean, doc jsonb, raw bytea)`,
  mysql: `CREATE TABLE bank_bookings (id bigint PRIMARY KEY, amount decimal(20,6), big bigint, booked_on date,
    changed_at timestamp(6) NOT NULL, memo text, flag boolean, doc json, raw blob)`,
};

const BYTES: Record<TestDialect, string> = { postgres: `'\\x00ff'::bytea`, mysql: `X'00FF'` };

interface Read {
  rows: SourceRow[];
  batchSizes: number[];
  position: CursorPosition | undefined;
}

async function readAll(reading: DatabaseReading): Promise<Read> {
  const rows: SourceRow[] = [];
  const batchSizes: number[] = [];
  for await (const batch of reading.batches) {
    batchSizes.push(batch.length);
    for (const item of batch) if (item.kind === 'row') rows.push(item.row);
  }
  return { rows, batchSizes, position: reading.position() };
}

/**
 * Reads one batch per open and stops, as runs interrupted after their first batch would, each
 * starting at the position the one before ended with: the rows, and the last position.
 */
async function readInPasses(
  source: DatabaseSource,
  env: NodeJS.ProcessEnv,
  batchSize: number,
): Promise<{ rows: SourceRow[]; after: CursorPosition | undefined }> {
  const rows: SourceRow[] = [];
  let after: CursorPosition | undefined;
  // Bounded: a position that does not advance would otherwise read the same batch for ever.
  for (let pass = 0; pass < 200; pass++) {
    const open = openDatabase(source, env, { batchSize });
    try {
      const reading = open.read(after);
      const next = await reading.batches[Symbol.asyncIterator]().next();
      if (next.done) return { rows, after };
      expect(next.value.length).toBeLessThanOrEqual(batchSize);
      for (const item of next.value) if (item.kind === 'row') rows.push(item.row);
      after = reading.position();
    } finally {
      await open.close();
    }
  }
  throw new Error(
    `still reading after 200 passes: ${rows.length} rows, the position stands at ${JSON.stringify(after)}`,
  );
}

describe.each(dialects)('database reading on %s', (dialect) => {
  const skip = missing[dialect];
  describe.skipIf(skip !== undefined)(`${dialect}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let db: TestDatabase;
    const env = () => ({ ERP_DB_URL: db.url });
    const settings = (source: Record<string, unknown>) =>
      DatabaseSource.parse({ location: { type: dialect, urlEnv: 'ERP_DB_URL' }, ...source });
    const ident = (name: string) => (dialect === 'postgres' ? `"${name}"` : `\`${name}\``);

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      await db.exec(BOOKINGS[dialect]);
      await db.exec(
        `INSERT INTO bank_bookings VALUES
          (1, 12345678901234.123456, 9007199254740993, '2024-02-29', '2024-03-01 12:00:00.123456', 'first', true, '{"a": [1, 2.50]}', ${BYTES[dialect]}),
          (2, -0.000001, -9223372036854775808, '1999-12-31', '2024-03-01 12:00:00.123457', NULL, false, NULL, NULL)`,
      );
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('gives every value as exact text, NULL as an empty cell, rows named by table and key', async () => {
      const source = openDatabase(
        settings({ table: 'bank_bookings', cursor: { column: 'changed_at', tieBreaker: 'id' } }),
        env(),
      );
      try {
        const reading = source.read();
        const { rows, position } = await readAll(reading);
        expect((await reading.columns)?.names).toEqual([
          'id',
          'amount',
          'big',
          'booked_on',
          'changed_at',
          'memo',
          'flag',
          'doc',
          'raw',
        ]);
        expect(rows.map((r) => [r.file, r.line, r.key])).toEqual([
          ['bank_bookings', 1, '1'],
          ['bank_bookings', 2, '2'],
        ]);
        const [first, second] = rows;
        expect(first?.cell('amount')).toBe('12345678901234.123456');
        expect(first?.cell('big')).toBe('9007199254740993');
        expect(first?.cell('booked_on')).toBe('2024-02-29');
        expect(first?.cell('raw')).toBe('\\x00ff');
        expect(JSON.parse(first?.cell('doc') ?? '')).toEqual({ a: [1, 2.5] });
        expect(second?.cell('amount')).toBe('-0.000001');
        expect(second?.cell('big')).toBe('-9223372036854775808');
        expect(second?.cell('memo')).toBeUndefined();
        expect(second?.cellAt?.(5)).toBeUndefined();
        expect(second?.cell('doc')).toBeUndefined();
        if (dialect === 'postgres') {
          expect(first?.cell('flag')).toBe('true');
          expect(second?.cell('flag')).toBe('false');
          expect(first?.cell('changed_at')).toBe('2024-03-01 12:00:00.123456+00');
        } else {
          // MySQL's BOOLEAN is TINYINT(1); its TIMESTAMP prints no offset (the session's zone, UTC).
          expect(first?.cell('flag')).toBe('1');
          expect(first?.cell('changed_at')).toBe('2024-03-01 12:00:00.123456');
        }
        expect(position?.tieBreaker).toBe('2');
        expect(position?.column).toMatch(/^2024-03-01 12:00:00\.123457/);
      } finally {
        await source.close();
      }
    });

    it('prints timestamps in the session time zone with their microseconds', async () => {
      const source = openDatabase(settings({ table: 'bank_bookings', timeZone: 'Europe/Berlin' }), env());
      try {
        if (dialect === 'postgres') {
          const { rows } = await readAll(source.read());
          expect(rows.map((r) => r.cell('changed_at'))).toEqual([
            '2024-03-01 13:00:00.123456+01',
            '2024-03-01 13:00:00.123457+01',
          ]);
        } else {
          // This MariaDB has no time zone tables loaded: a named zone other than UTC is refused, saying so.
          const tables = await zoneTablesLoaded(db);
          const read = readAll(source.read());
          if (tables) {
            const { rows } = await read;
            expect(rows[0]?.cell('changed_at')).toBe('2024-03-01 13:00:00.123456');
          } else {
            const error = await databaseFailure(read);
            expect([error.code, error.exitCode]).toEqual(['TIME_ZONE_UNKNOWN', 2]);
            expect(error.message).toContain('Europe/Berlin');
            expect(error.message).toContain('time zone tables');
          }
        }
      } finally {
        await source.close();
      }
    });

    it('reads a keyset cursor with ties across batch boundaries, each row once', async () => {
      await db.exec('CREATE TABLE ties (id int PRIMARY KEY, changed_at date NOT NULL, memo text)');
      // 40 rows in groups of 7 equal dates, ids out of insertion order: batches of 5 split every group.
      const values = Array.from({ length: 40 }, (_, i) => {
        const id = (i * 17) % 40;
        return `(${id}, '2024-01-${String(1 + Math.floor(id / 7)).padStart(2, '0')}', 'row ${id}')`;
      });
      await db.exec(`INSERT INTO ties VALUES ${values.join(', ')}`);
      const source = settings({ table: 'ties', cursor: { column: 'changed_at', tieBreaker: 'id' } });
      // Each pass reads one batch and stops, as a run interrupted after its first batch.
      const { rows: seen, after } = await readInPasses(source, env(), 5);
      expect(seen.map((r) => r.key)).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
      // Rows written later with the last position's own date are read after it, never before.
      await db.exec(`INSERT INTO ties VALUES (40, '2024-01-06', 'late'), (41, '2024-01-07', 'later')`);
      const open = openDatabase(source, env());
      try {
        const { rows } = await readAll(open.read(after));
        expect(rows.map((r) => r.key)).toEqual(['40', '41']);
      } finally {
        await open.close();
      }
    });

    it('resumes on a microsecond timestamp cursor without skipping or repeating a row', async () => {
      const type = dialect === 'postgres' ? 'timestamptz(6)' : 'datetime(6)';
      await db.exec(`CREATE TABLE micro (id int PRIMARY KEY, stamp ${type} NOT NULL)`);
      const rows = Array.from(
        { length: 12 },
        (_, i) =>
          `(${i + 1}, '2024-05-05 10:00:00.${String(i + 1).padStart(6, '0')}${dialect === 'postgres' ? '+00' : ''}')`,
      );
      await db.exec(`INSERT INTO micro VALUES ${rows.join(', ')}`);
      const source = settings({
        table: 'micro',
        cursor: { column: 'stamp' },
        timeZone: dialect === 'postgres' ? 'Europe/Berlin' : 'UTC',
      });
      const { rows: seen, after } = await readInPasses(source, env(), 1);
      expect(seen.map((r) => r.cell('id'))).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
      // PostgreSQL: timestamptz printed in the session's zone, its offset kept in the position.
      expect(after).toEqual({
        column: dialect === 'postgres' ? '2024-05-05 12:00:00.000012+02' : '2024-05-05 10:00:00.000012',
      });
    });

    it('reads a query as a subquery, its rows named `query`', async () => {
      const open = openDatabase(
        settings({
          query: `SELECT id, amount, memo AS purpose FROM bank_bookings WHERE amount > 0 -- positive only`,
          cursor: { column: 'id' },
        }),
        env(),
      );
      try {
        const reading = open.read();
        const { rows, position } = await readAll(reading);
        expect((await reading.columns)?.names).toEqual(['id', 'amount', 'purpose']);
        expect(rows.map((r) => [r.file, r.line, r.key, r.cell('purpose'), r.text()])).toEqual([
          ['query', 1, '1', 'first', '1\t12345678901234.123456\tfirst'],
        ]);
        expect(position).toEqual({ column: '1' });
      } finally {
        await open.close();
      }
    });

    it('refuses a cursor column the result lacks before any row (exit 2), naming the columns there are', async () => {
      const open = openDatabase(
        settings({ table: 'bank_bookings', cursor: { column: 'updated_at', tieBreaker: 'id' } }),
        env(),
      );
      try {
        const reading = open.read();
        const error = await databaseFailure(readAll(reading));
        expect([error.code, error.exitCode]).toEqual(['NO_SUCH_COLUMN', 2]);
        expect(error.message).toContain('updated_at (cursor.column)');
        expect(error.message).toContain('id, amount, big, booked_on, changed_at');
        await expect(reading.columns).rejects.toBe(error);
      } finally {
        await open.close();
      }
    });

    it('refuses a table that does not exist (exit 2), naming it', async () => {
      const open = openDatabase(settings({ table: 'no_such_bookings' }), env());
      try {
        const error = await databaseFailure(readAll(open.read()));
        expect([error.code, error.exitCode]).toEqual(['NO_SUCH_TABLE', 2]);
        expect(error.message).toContain('no_such_bookings');
      } finally {
        await open.close();
      }
    });

    it('refuses a query the server refuses (exit 2): a column it lacks, a syntax error', async () => {
      for (const [query, code] of [
        ['SELECT no_such_column FROM bank_bookings', 'NO_SUCH_COLUMN'],
        ['SELECT id FROM bank_bookings WHERE', 'BAD_QUERY'],
      ] as const) {
        const open = openDatabase(settings({ query }), env());
        try {
          const error = await databaseFailure(readAll(open.read()));
          expect([error.code, error.exitCode]).toEqual([code, 2]);
        } finally {
          await open.close();
        }
      }
    });

    it('reads a schema-qualified table, each part quoted', async () => {
      const schema = dialect === 'postgres' ? 'erp' : db.name;
      if (dialect === 'postgres') await db.exec('CREATE SCHEMA erp');
      await db.exec(`CREATE TABLE ${ident(schema)}.${ident('Mixed$Case')} (id int PRIMARY KEY)`);
      await db.exec(`INSERT INTO ${ident(schema)}.${ident('Mixed$Case')} VALUES (7)`);
      const open = openDatabase(settings({ table: `${schema}.Mixed$Case`, cursor: { column: 'id' } }), env());
      try {
        const { rows } = await readAll(open.read());
        expect(rows.map((r) => [r.file, r.key])).toEqual([[`${schema}.Mixed$Case`, '7']]);
      } finally {
        await open.close();
      }
    });

    it('says URL_MISSING (exit 2) naming the variable when it is not set', () => {
      let error: unknown;
      try {
        openDatabase(settings({ table: 'bank_bookings' }), {});
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DatabaseError);
      expect([(error as DatabaseError).code, (error as DatabaseError).exitCode]).toEqual(['URL_MISSING', 2]);
      expect((error as DatabaseError).message).toContain('ERP_DB_URL');
    });

    it('says UNREACHABLE (exit 3) for a closed port, without the password', async () => {
      const port = await freePort();
      const scheme = dialect === 'postgres' ? 'postgres' : 'mysql';
      const open = openDatabase(settings({ table: 'bank_bookings' }), {
        ERP_DB_URL: `${scheme}://reader:Sekr3t-pw-42@127.0.0.1:${port}/erp`,
      });
      try {
        expect(open.label).toBe(`${scheme}://127.0.0.1:${port}/erp`);
        const error = await databaseFailure(readAll(open.read()));
        expect([error.code, error.exitCode]).toEqual(['UNREACHABLE', 3]);
        expect(error.message).toContain(`${scheme}://127.0.0.1:${port}/erp`);
        expect(inspect(error, { depth: 10 })).not.toContain('Sekr3t');
      } finally {
        await open.close();
      }
    });

    it('streams 200,000 rows in bounded batches', async () => {
      if (dialect === 'postgres') {
        await db.exec(
          'CREATE TABLE many AS SELECT g AS id, g * 0.01 AS amount FROM generate_series(1, 200000) AS g',
        );
      } else {
        await db.exec('CREATE TABLE many (id int PRIMARY KEY, amount decimal(12,2))');
        await db.exec('INSERT INTO many SELECT seq, seq * 0.01 FROM seq_1_to_200000');
      }
      const open = openDatabase(settings({ table: 'many', cursor: { column: 'id' } }), env(), {
        batchSize: 500,
      });
      try {
        const reading = open.read();
        let count = 0;
        let largest = 0;
        let last = '';
        for await (const batch of reading.batches) {
          count += batch.length;
          largest = Math.max(largest, batch.length);
          const item = batch[batch.length - 1];
          if (item?.kind === 'row') last = item.row.cell('amount') ?? '';
        }
        expect(count).toBe(200_000);
        expect(largest).toBeLessThanOrEqual(500);
        expect(last).toBe('2000.00');
        expect(reading.position()).toEqual({ column: '200000' });
      } finally {
        await open.close();
      }
    });
  });
});

async function zoneTablesLoaded(db: TestDatabase): Promise<boolean> {
  try {
    await db.exec(`SET time_zone = 'Europe/Berlin'`);
    return true;
  } catch {
    return false;
  }
}
